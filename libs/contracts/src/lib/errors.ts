/** The one error body every HTTP error of the service answers with. */
export interface ErrorBody {
  error: {
    code: string;
    message: string;
    details: ErrorDetail[];
  };
}

/** Where a problem is: a request field, a file with a line, or a JSON path. */
export interface ErrorDetail {
  message: string;
  path?: string;
  file?: string;
  line?: number;
  column?: number;
  code?: string;
  [key: string]: unknown;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}
