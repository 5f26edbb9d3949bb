import type { DbOrTx } from '../db/client'
import { logs } from '../db/schema'
import type { Actor } from './actor'

export type LogTipo = 'success' | 'warning' | 'error' | 'info'

export interface LogEntry {
  accion: string
  url: string
  tipo: LogTipo
  descripcion: string
  viviendaId?: number | null
  usuarioId?: number | null
  /** DECISIONS L3: previous and new values. */
  datos?: unknown
}

/**
 * DECISIONS L1: the server writes the log in the same transaction as the change (pass the `tx`).
 * `actor` is null for events without a logged-in worker (a failed login for an unknown e-mail).
 */
export async function writeLog(db: DbOrTx, actor: Pick<Actor, 'id' | 'email'> | null, entry: LogEntry): Promise<void> {
  await db.insert(logs).values({
    trabajadorId: actor?.id ?? null,
    trabajadorEmail: actor?.email ?? null,
    accion: entry.accion,
    url: entry.url,
    tipo: entry.tipo,
    descripcion: entry.descripcion,
    viviendaId: entry.viviendaId ?? null,
    usuarioId: entry.usuarioId ?? null,
    datos: entry.datos ?? null,
  })
}
