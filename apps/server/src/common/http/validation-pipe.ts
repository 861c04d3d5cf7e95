import { ValidationPipe } from '@nestjs/common';
import { validationFailed } from '../errors/common.errors';

/**
 * The request validation every route gets (installed globally by app.factory): class-validator rules of the
 * libs/contracts request classes, unknown properties refused, 400 `validation_failed` with one detail per field.
 * Pipes that validate a query class of their own (ListPagePipe) use the same one.
 */
export function requestValidationPipe(): ValidationPipe {
  return new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, exceptionFactory: (errors) => validationFailed(errors) });
}
