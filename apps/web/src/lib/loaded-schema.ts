import { zodResolver } from '@hookform/resolvers/zod'
import type { BaseSyntheticEvent } from 'react'
import type { FieldValues, Resolver } from 'react-hook-form'
import type { z } from 'zod'
import { errorMessage } from './form-errors'

/**
 * A form's schema loaded when the form is first used, not when its screen opens: the module of `@vb/shared` that
 * holds it builds every schema it has as it loads (a screen's start on a phone spent more on that than on anything
 * else of its own code: docs/performance.md). Made once per screen (or per record edited) with `schemaFrom`.
 */
export interface LoadedSchema<I> {
  readonly load: () => Promise<z.ZodType<unknown, I>>
  /** Asked for ahead (a form opened, typed into): a failure here is said by the validation that needs it. */
  readonly preload: () => void
}

/**
 * `schemaFrom(() => import('@vb/shared/empresas').then((m) => m.empresaCreateSchema))`: the module is asked for once
 * (again after a failed attempt, a file that could not be downloaded).
 */
export function schemaFrom<I>(load: () => Promise<z.ZodType<unknown, I>>): LoadedSchema<I> {
  let loading: Promise<z.ZodType<unknown, I>> | undefined
  const loaded = () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined
      throw err
    })
    return loading
  }
  return { load: loaded, preload: () => void loaded().catch(() => undefined) }
}

export const isLoaded = <I>(schema: z.ZodType<unknown, I> | LoadedSchema<I>): schema is LoadedSchema<I> =>
  typeof (schema as Partial<LoadedSchema<I>>).load === 'function'

/**
 * react-hook-form's resolver for a shared schema, given as it is or loaded by `schemaFrom`: a validation before the
 * schema has arrived waits for it, and one whose download fails rejects (the form says so and keeps what was typed).
 */
export function schemaResolver<I extends FieldValues>(schema: z.ZodType<unknown, I> | LoadedSchema<I>): Resolver<I, unknown, I> {
  return (isLoaded(schema)
    ? async (values: I, context: unknown, options: never) =>
        zodResolver((await schema.load()) as never)(values as never, context, options)
    : zodResolver(schema as never)) as unknown as Resolver<I, unknown, I>
}

/**
 * A form element's handlers when its schema loads as it is typed into (`<Form noValidate {...loadingForm(…)}>`): the
 * schema asked for at the first keystroke, and a submit whose schema could not be downloaded (the network gone) said
 * by `fail`, while the form keeps what was typed.
 */
export function loadingForm(
  schema: Pick<LoadedSchema<unknown>, 'preload'>,
  submit: (event?: BaseSyntheticEvent) => Promise<void>,
  fail: (message: string) => void,
) {
  return {
    onInput: schema.preload,
    onSubmit: (event: BaseSyntheticEvent) => void submit(event).catch((err: unknown) => fail(errorMessage(err))),
  }
}
