import { zodResolver } from '@hookform/resolvers/zod'
import { useCallback, useEffect, useState } from 'react'
import { type DefaultValues, type FieldValues, type Path, type Resolver, useForm } from 'react-hook-form'
import type { z } from 'zod'
import { ApiError } from '../../lib/api-client'
import { errorMessage } from '../../lib/form-errors'
import { formValidation } from '../form-fields'

/** Every field of the form, each with its starting value (undefined for a select with nothing chosen). */
export type FormDefaults<I> = { [K in keyof I]-?: I[K] | undefined }

interface Options<I extends FieldValues> {
  /** The shared schema the API validates with (one rule and its message exist once). */
  schema: z.ZodType<unknown, I>
  /** The form of a new record. */
  empty: FormDefaults<I>
  /** The record being edited as form values, or null for a new one. */
  values: I | null
  /** The modal is open: the form is reset to `values ?? empty` each time it opens. */
  show: boolean
  /** Where SPEC puts a 403 of this form (e.g. residents: 'No puedes crear un usuario en esta vivienda' under Vivienda). */
  forbiddenField?: Path<I>
  /** Where a 409 without fieldErrors goes (e.g. a duplicate NIF). */
  conflictField?: Path<I>
}

/**
 * The one form hook of the resource kit: react-hook-form with the shared zod schema, validated on submit
 * (SPEC §5: errors under each field, cleared when the field is edited), and the server's answer put where it
 * belongs: `fieldErrors` under their fields, a 403 or 409 under the field SPEC gives it, anything else at
 * the top of the form (the dialog stays open, nothing typed is lost).
 */
export function useResourceForm<I extends FieldValues>({
  schema,
  empty,
  values,
  show,
  forbiddenField,
  conflictField,
}: Options<I>) {
  const form = useForm<I, unknown, I>({
    ...formValidation,
    resolver: zodResolver(schema as never) as unknown as Resolver<I, unknown, I>,
    defaultValues: empty as DefaultValues<I>,
  })
  const [formError, setFormError] = useState<string | null>(null)
  const { reset } = form

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on opening only, not on every new object
  useEffect(() => {
    if (!show) return
    reset((values ?? empty) as DefaultValues<I>)
    setFormError(null)
  }, [show, reset])

  const fields = Object.keys(empty)
  const showServerError = useCallback(
    (err: unknown) => {
      if (err instanceof ApiError) {
        const entries = Object.entries(err.body.fieldErrors ?? {}).filter(([field]) => fields.includes(field))
        for (const [field, message] of entries) form.setError(field as Path<I>, { type: 'server', message })
        if (entries.length) return
        const target = err.code === 'FORBIDDEN' ? forbiddenField : err.code === 'CONFLICT' ? conflictField : undefined
        if (target) {
          form.setError(target, { type: 'server', message: err.message })
          return
        }
      }
      setFormError(errorMessage(err))
    },
    [fields, form, forbiddenField, conflictField],
  )

  /** A submit handler that runs `save` with the valid values and shows any refusal where it belongs. */
  const submit = (save: (values: I) => Promise<void>) =>
    form.handleSubmit(async (valid) => {
      setFormError(null)
      try {
        await save(valid)
      } catch (err) {
        showServerError(err)
      }
    })

  return { form, formError, submit, dirty: form.formState.isDirty }
}
