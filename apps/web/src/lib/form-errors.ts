import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { ApiError } from './api-client'

/**
 * Puts a 400's `fieldErrors` under the matching form fields (docs/architecture.md, errors).
 * Returns true when at least one field got a message; otherwise the caller shows `errorMessage(err)`.
 */
export function applyFieldErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  if (!(err instanceof ApiError) || !err.body.fieldErrors) return false
  let applied = false
  for (const [field, message] of Object.entries(err.body.fieldErrors)) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message })
      applied = true
    }
  }
  return applied
}

/** The Spanish message to show for any failed call (an ApiError's server message, or a generic one). */
export function errorMessage(err: unknown, fallback = 'Se ha producido un error inesperado. Inténtalo más tarde.'): string {
  return err instanceof ApiError ? err.message : fallback
}
