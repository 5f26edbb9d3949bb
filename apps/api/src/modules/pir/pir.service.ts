import {
  addDays,
  madridStartOfDay,
  PIR_WARNING_DAYS,
  type PirBadge,
  type PirStatus,
  pirDatedFrom,
  pirNotification,
  pirStatus,
} from '@vb/shared'
import { type AnyColumn, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import type { Clock } from '../../lib/clock'
import { createNotificaciones } from '../notificaciones/notificaciones.service'

/**
 * DECISIONS D3, SPEC §4: the PIR tracker on the server. The rule itself (6 months, 30 days, Madrid days,
 * the latest counts) is the shared `pirStatus`; SQL only finds each resident's latest PIR date: stored on the
 * resident (`usuarios.pir_fecha`, kept by a trigger), or through the partial index documentos_usuario_pir_idx
 * (usuario_id, fecha) WHERE upper(trim(titulo)) = 'PIR'.
 */

/**
 * The resident's PIR is in `estado` today (`hoy`, a Madrid day): caducado, or aviso (0-30 days left). A range
 * of its stored latest PIR date (`usuarios.pir_fecha`, kept by a trigger on its documents), with bounds the
 * shared rule computes once (`pirDatedFrom`), so no row is converted and an index can answer.
 */
export function pirEstadoEs(pirFecha: AnyColumn | SQL, estado: 'caducado' | 'aviso', hoy: string): SQL {
  const vigenteDesde = madridStartOfDay(pirDatedFrom(hoy)).toISOString()
  if (estado === 'caducado') return sql`${pirFecha} < ${vigenteDesde}`
  const masAllaDesde = madridStartOfDay(pirDatedFrom(addDays(hoy, PIR_WARNING_DAYS + 1))).toISOString()
  return sql`(${pirFecha} >= ${vigenteDesde} and ${pirFecha} < ${masAllaDesde})`
}

/** A row's latest PIR date (as the driver gives it) → its status today. */
export function pirFrom(fecha: Date | string | null, now: Date): PirStatus {
  return pirStatus(fecha ? [fecha] : [], now)
}

export const pirBadge = (status: PirStatus): PirBadge => ({ estado: status.estado, diasRestantes: status.diasRestantes })

/**
 * The PIR status of one resident today, and its PIR document (DECISIONS D3: the latest titled 'PIR'), which
 * the PIR card's 'Editar PIR' opens. One indexed probe on documentos_usuario_pir_idx.
 */
export async function pirStatusOf(
  db: DbOrTx,
  clock: Clock,
  usuarioId: number,
): Promise<{ status: PirStatus; documentoId: number | null }> {
  const result = (await db.execute(
    sql`select d.id, d.fecha from documentos_usuario d
        where d.usuario_id = ${usuarioId} and upper(trim(d.titulo)) = 'PIR'
        order by d.fecha desc, d.id desc limit 1`,
  )) as unknown as { rows: Array<{ id: number; fecha: Date | string }> }
  const latest = result.rows[0]
  return { status: pirFrom(latest?.fecha ?? null, clock.now()), documentoId: latest ? Number(latest.id) : null }
}

/**
 * A PIR can be in aviso only from 6 months − 30 days after its date (at least 151 days): older dates are
 * the only candidates worth reading. The cut is generous (140 days); `pirStatus` decides exactly.
 */
const CANDIDATE_AGE_DAYS = 140
/** Residents read per round of the sweep. */
const BATCH = 500

interface Candidate {
  id: number
  nombre: string
  apellidos: string
  empresa_id: number
  fecha: Date | string
}

/**
 * The notifications of `values` whose worker and dedupe key are not stored yet. Every daily run finds again
 * the warnings of the days before (at 100,000 residents, about 900,000 of them): one indexed read per batch
 * leaves out what is there, instead of building each one's INSERT for ON CONFLICT to refuse. It asks for the
 * batch's keys, whoever they were sent to: notificaciones_dedupe_unique leads with the key, so that is one probe
 * a key (a few hundred), where asking for workers and keys together scanned the whole table (at 100,000
 * residents, 170–320 ms a batch and 29 s a run). What two processes add at once is still settled by the conflict.
 */
async function notSentYet<V extends { trabajadorId: number; dedupeKey: string }>(db: DbOrTx, values: V[]): Promise<V[]> {
  if (!values.length) return values
  const keys = [...new Set(values.map((v) => v.dedupeKey))]
  const { rows } = (await db.execute(sql`
    select trabajador_id, dedupe_key from notificaciones where dedupe_key in ${keys}`)) as unknown as {
    rows: Array<{ trabajador_id: number; dedupe_key: string }>
  }
  const sent = new Set(rows.map((r) => `${r.trabajador_id}\u0000${r.dedupe_key}`))
  return values.filter((v) => !sent.has(`${v.trabajadorId}\u0000${v.dedupeKey}`))
}

/**
 * SPEC §4, DECISIONS D3: PIR notifications ('PIR próximo a caducar' / 'PIR caducado', tipo PIR) for the
 * active workers linked to the company of each resident's home, once per worker, resident, state and
 * expiry date: the dedupe key `pir:<resident>:<state>:<expiry>` and the unique index on (worker, key)
 * decide, through createNotificaciones (INSERT … ON CONFLICT DO NOTHING), so any number of processes and
 * requests may run this at once. Without `usuarioIds`, every resident (start-up and the daily run);
 * with them, those residents (a PIR document created, changed or deleted, in that change's transaction).
 * Returns how many notifications were created.
 */
export async function notifyPir(db: DbOrTx, clock: Clock, usuarioIds?: number[]): Promise<number> {
  const now = clock.now()
  if (usuarioIds && !usuarioIds.length) return 0
  const cutoff = new Date(now.getTime() - CANDIDATE_AGE_DAYS * 86_400_000)
  let created = 0
  let after = 0
  for (;;) {
    const only = usuarioIds ? sql`and u.id in ${usuarioIds}` : sql``
    const { rows } = (await db.execute(sql`
      select u.id, u.nombre, u.apellidos, v.empresa_id, u.pir_fecha as fecha
        from usuarios u
        join viviendas v on v.id = u.vivienda_id
       where u.id > ${after} ${only} and u.pir_fecha < ${cutoff}
       order by u.id
       limit ${BATCH}`)) as unknown as { rows: Candidate[] }
    if (!rows.length) break
    after = rows[rows.length - 1]?.id ?? after

    const due = rows.flatMap((r) => {
      const status = pirFrom(r.fecha, now)
      const text = pirNotification(`${r.nombre} ${r.apellidos}`, status)
      return text ? [{ resident: r, status, text }] : []
    })
    if (due.length) {
      const empresaIds = [...new Set(due.map((d) => Number(d.resident.empresa_id)))]
      const { rows: workers } = (await db.execute(sql`
        select te.trabajador_id, te.empresa_id
          from trabajador_empresas te
          join trabajadores t on t.id = te.trabajador_id
         where t.activo and te.empresa_id in ${empresaIds}`)) as unknown as {
        rows: Array<{ trabajador_id: number; empresa_id: number }>
      }
      const values = due.flatMap(({ resident, status, text }) =>
        workers
          .filter((w) => Number(w.empresa_id) === Number(resident.empresa_id))
          .map((w) => ({
            titulo: text.titulo,
            descripcion: text.descripcion,
            tipo: 'PIR',
            trabajadorId: Number(w.trabajador_id),
            fechaNotificacion: now,
            dedupeKey: `pir:${resident.id}:${status.estado}:${status.caducidad}`,
          })),
      )
      created += (await createNotificaciones(db, await notSentYet(db, values))).length
    }
    if (rows.length < BATCH) break
  }
  return created
}
