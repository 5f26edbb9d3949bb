/**
 * What was typed in an open form when the session ended. A 401 clears the stored session and goes to the login
 * (DECISIONS A3), which returns to the screen once the worker logs in again; the form's values are kept here until
 * then, in this tab's memory only (never in storage), and only for the worker who typed them: on a shared computer
 * another worker's login drops them. The form that kept them reopens with them (the resource kit's CrudPage).
 */

/** A form's typed values, with the record it edits (null: a new one). */
export interface Draft {
  /** Which form on the screen, e.g. the resource's name. */
  form: string
  record: unknown
  values: unknown
}

interface Kept extends Draft {
  owner: number
  /** The screen's path, without its query. */
  path: string
}

type Source = () => Draft

const sources = new Set<Source>()
let kept: Kept | null = null

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

  /** The session of `owner` ends on `path`: the values of the open form with typed changes are kept. */
  keep(owner: number | undefined, path: string): void {
    const [source] = sources
    kept = owner !== undefined && source ? { ...source(), owner, path } : null
  },

  /** The draft of `form` on `path` for `owner`, once. A draft of another worker is dropped. */
  take(owner: number | undefined, path: string, form: string): Draft | null {
    if (!kept) return null
    if (kept.owner !== owner) {
      kept = null
      return null
    }
    if (kept.path !== path || kept.form !== form) return null
    const { form: f, record, values } = kept
    kept = null
    return { form: f, record, values }
  },

  /** A login: what another worker typed is dropped at once. */
  loggedIn(owner: number): void {
    if (kept && kept.owner !== owner) kept = null
  },

  /** Drops whatever is kept (a logout). */
  clear(): void {
    kept = null
  },
}
