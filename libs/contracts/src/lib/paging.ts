import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * `?limit=` of a paged list: optional, a whole number from 1 to 200 (query strings arrive as text, so a numeric
 * string is converted first and anything else fails `IsInt` with the field's name).
 */
export function PageLimit(): PropertyDecorator {
  return (target, property) => {
    for (const decorate of [IsOptional(), Transform(({ value }) => (typeof value === 'string' && value !== '' ? Number(value) : value)), IsInt(), Min(1), Max(200)]) {
      decorate(target, property);
    }
  };
}
