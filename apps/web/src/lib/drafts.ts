/**
 * What a session left when it ended: the values typed in an open form and the company chosen in the top bar. A 401
 * clears the stored session and goes to the login (DECISIONS A3), which returns to the screen once the worker logs
 * in again; both are kept here until then, in this tab's memory only (never in storage), and only for the worker
 * who left them: on a shared computer another worker's login drops them. The login chooses the company again
 * (login-page.tsx) and the form that kept its values reopens with them (useResourceForm's `keep`).
 */

/** A form's typed values, with the record it edits (null: a new one). */
export interface Draft {
  /** Which form on the screen, e.g. the resource's name. */
  form: string
  record: unknown
  values: unknown
}

/** The company chosen in the top bar (null: all of the worker's companies). */
export type EmpresaElegida = { id: number; nombre: string } | null

interface Left {
  owner: number
  /** The company to choose again at the login; undefined once chosen. */
  empresa?: EmpresaElegida
  /** The open form's values, with the screen's path (without its query); null once given back. */
  draft: (Draft & { path: string }) | null
}

type Source = () => Draft

const sources = new Set<Source>()
let left: Left | null = null

export const drafts = {
  /**
   * An open form with typed changes says how to read them, for as long as it stays so. Returns the function
   * that withdraws the offer (call it when the form closes or is saved).
   */
  offer(source: Source): () => void {
    sources.add(source)
    return () => {
      sources.delete(source)
    }
  },

  /** The session of `owner` ends on `path`, with `empresa` chosen: that, and the open form with typed changes, are kept. */
  keep(owner: number | undefined, path: string, empresa: EmpresaElegida): void {
    const [source] = sources
    left =
      owner === undefined
        ? null
        : {
            owner,
            empresa: empresa && { id: empresa.id, nombre: empresa.nombre },
            draft: source ? { ...source(), path } : null,
          }
  },

  /**
   * A login: what another worker left is dropped at once. Returns the company `owner` had chosen when the session
   * ended, once, or undefined (the login's own choice stands).
   */
  loggedIn(owner: number): EmpresaElegida | undefined {
    if (left?.owner !== owner) {
      left = null
      return undefined
    }
    const { empresa } = left
    left.empresa = undefined
    return empresa
  },

  /** The draft of `form` on `path` for `owner`, once. What another worker left is dropped. */
  take(owner: number | undefined, path: string, form: string): Draft | null {
    if (!left) return null
    if (left.owner !== owner) {
      left = null
      return null
    }
    const draft = left.draft
    if (!draft || draft.path !== path || draft.form !== form) return null
    left.draft = null
    return { form: draft.form, record: draft.record, values: draft.values }
  },

  /** Drops whatever is kept (a logout). */
  clear(): void {
    left = null
  },
}
