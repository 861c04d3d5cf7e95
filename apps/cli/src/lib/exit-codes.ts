/** Stable exit codes; CI scripts branch on them, so never renumber. */
export enum ExitCode {
  Ok = 0,
  /** The config, a diagram, a context file or the bundle is invalid (locally or per the server: 400/413/422). */
  Validation = 1,
  /** Missing or refused token, missing/invalid gateway URL or config file (401/403/404). */
  Configuration = 2,
  /** The gateway failed or could not be reached (5xx after retries, network errors, timeouts). */
  ServerOrNetwork = 3,
}

/**
 * `service-cli diff --exit-code`: 1 when the artifacts differ, like `git diff --exit-code`. It shares 1 with
 * Validation (an invalid checkout); a script that must tell them apart reads `--json`'s `ok`.
 */
export const DIFF_CHANGED_EXIT_CODE = 1;
