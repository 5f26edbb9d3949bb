import type { AppDeps } from '../deps'
import { notifyPir } from './pir/pir.service'
import { sweepUploads } from './uploads/uploads.service'

/**
 * What the server does at start-up and then every day (server.ts): the PIR notifications of every resident
 * (DECISIONS D3) and the sweep of the uploads folder. Safe when several processes run it at once.
 */
export async function runDailyJobs(deps: Pick<AppDeps, 'db' | 'clock' | 'files' | 'log'>): Promise<void> {
  const started = Date.now()
  const notificaciones = await notifyPir(deps.db, deps.clock)
  const swept = await sweepUploads(deps)
  deps.log.info(
    { notificacionesPir: notificaciones, subidasBorradas: swept.rows, archivosBorrados: swept.files, ms: Date.now() - started },
    'daily jobs done',
  )
}
