import { type BaseSyntheticEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { type DefaultValues, type FieldValues, type Path, type UseFormReturn, useForm } from 'react-hook-form'
import { useLocation } from 'react-router'
import type { z } from 'zod'
import { ApiError } from '../../lib/api-client'
import { drafts } from '../../lib/drafts'
import { errorMessage, formValidation } from '../../lib/form-errors'
import { isLoaded, type LoadedSchema, schemaResolver } from '../../lib/loaded-schema'
import { useTrabajador } from '../../lib/use-session'

/** Every field of the form, each with its starting value (undefined for a select with nothing chosen). */
export type FormDefaults<I> = { [K in keyof I]-?: I[K] | undefined }

interface Options<I extends FieldValues> {
  /**
   * The shared schema the API validates with (one rule and its message exist once), or that schema loaded when the
   * form first opens (`schemaFrom`); a submit before it has arrived waits for it.
   */
  schema: z.ZodType<unknown, I> | LoadedSchema<I>
  /** The form of a new record. */
  empty: FormDefaults<I>
  /** The record being edited as form values, or null for a new one. */
  values: I | null
  /** The modal is open: the form is reset to `values ?? empty` each time it opens. */
  show: boolean
  /**
   * Kept if the session ends while the form is open with typed changes (lib/drafts.ts): `name` tells this form
   * from the screen's others, `record` is what it edits (null: a new one), and `reopen` opens the form again on
   * that record when the worker is back on the screen after the login.
   */
  keep?: { name: string; record: unknown; reopen: (record: never) => void }
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
  keep,
  forbiddenField,
  conflictField,
}: Options<I>) {
  const resolver = useMemo(() => schemaResolver(schema), [schema])
  const form = useForm<I, unknown, I>({ ...formValidation, resolver, defaultValues: empty as DefaultValues<I> })
  const [formError, setFormError] = useState<string | null>(null)
  const { reset } = form
  const draft = useKeptDraft(form, show, keep)

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on opening only, not on every new object
  useEffect(() => {
    if (!show) return
    reset((values ?? empty) as DefaultValues<I>)
    // Reopened with what was typed before the session ended: dirty where it differs, so Cancelar asks first.
    if (draft) reset(draft as DefaultValues<I>, { keepDefaultValues: true })
    setFormError(null)
  }, [show, reset])

  // The schema asked for as the form opens, so that a submit finds it there.
  useEffect(() => {
    if (show && isLoaded(schema)) schema.preload()
  }, [show, schema])

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

  /**
   * A submit handler that runs `save` with the valid values and shows any refusal where it belongs; a schema that
   * could not be loaded (the network gone) is said at the top of the form, which keeps what was typed.
   */
  const submit = (save: (values: I) => Promise<void>) => {
    const handle = form.handleSubmit(async (valid) => {
      setFormError(null)
      try {
        await save(valid)
      } catch (err) {
        showServerError(err)
      }
    })
    return (event?: BaseSyntheticEvent) => handle(event).catch((err: unknown) => setFormError(errorMessage(err)))
  }

  return { form, formError, submit, dirty: form.formState.isDirty, recovered: draft !== null }
}

/**
 * A form's part in lib/drafts.ts: while it is open with typed changes it offers them, and when the screen opens
 * with a draft of it for this worker it reopens on its record. Returns the values to reopen with, until it closes.
 * A form that is the screen itself (own settings) is always open: `show` true.
 */
export function useKeptDraft<I extends FieldValues>(form: UseFormReturn<I, unknown, I>, show: boolean, keep: Options<I>['keep']) {
  const [draft, setDraft] = useState<I | null>(null)
  const { pathname } = useLocation()
  const owner = useTrabajador()?.id
  const dirty = form.formState.isDirty
  const name = keep?.name
  const record = keep?.record

  useEffect(() => {
    if (name === undefined || !show || !dirty) return
    return drafts.offer(() => ({ form: name, record, values: form.getValues() }))
  }, [name, show, dirty, record, form])

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the screen opens
  useEffect(() => {
    if (!keep) return
    const kept = drafts.take(owner, pathname, keep.name)
    if (!kept) return
    setDraft(kept.values as I)
    keep.reopen(kept.record as never)
  }, [])

  // Closed: the next opening starts from the record again (a ref, not an effect on mount, so React's strict
  // mode running the mount effects twice cannot drop the draft it has just taken).
  const wasShown = useRef(show)
  useEffect(() => {
    if (wasShown.current && !show) setDraft(null)
    wasShown.current = show
  }, [show])
  return draft
}
