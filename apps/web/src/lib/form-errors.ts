import type { FieldValues, Path, RegisterOptions, UseFormReturn, UseFormSetError } from 'react-hook-form'
import { ApiError } from './api-client'

/**
 * SPEC §5: errors show under each field and are cleared when the field is edited, so a form validates on
 * submit only (`useForm({ ...formValidation, resolver })`) and each field clears its own error on change
 * (registerClearing).
 */
export const formValidation = { mode: 'onSubmit', reValidateMode: 'onSubmit' } as const

/** `form.register(name)` for a field whose error goes when it is edited (SPEC §5); `options.onChange` runs too. */
export function registerClearing<T extends FieldValues, C, O>(
  form: UseFormReturn<T, C, O>,
  name: Path<T>,
  options?: RegisterOptions<T, Path<T>>,
) {
  return form.register(name, {
    ...options,
    onChange: (event) => {
      if (form.getFieldState(name).error) form.clearErrors(name)
      options?.onChange?.(event)
    },
  })
}

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
