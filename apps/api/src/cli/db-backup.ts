import { statSync } from 'node:fs'
import path from 'node:path'
import { backupDatabase } from '../db/backup'
import { cliArgs, cliConfig, cliTarget, reportCliError, stopOnSignals, userPath } from './database'

/**
 * DECISIONS R, backups: `npm run db:backup -- FILE` writes a compressed dump of the embedded server (also
 * while `npm start` runs: one consistent snapshot) or of DATABASE_URL. The file is private (0600) and
 * whole: it appears under its name only once complete; a failure or Ctrl-C leaves nothing behind.
 */
const USAGE = 'Uso: npm run db:backup -- ARCHIVO   (por ejemplo: npm run db:backup -- copia-2026-11-23.vbdump)'
const { positionals } = cliArgs({ allowPositionals: true, options: {} }, USAGE)
if (positionals.length !== 1) {
  console.error(USAGE)
  process.exit(2)
}
const file = userPath(positionals[0] as string)
const folder = path.dirname(file)
// Said before any server is started for the backup.
if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`No se pudo escribir la copia en ${file}: la carpeta ${folder} no existe.`)
  process.exit(1)
}
const config = cliConfig()
const signal = stopOnSignals('Interrumpiendo la copia…')
try {
  const { target, done } = await cliTarget(config, false)
  try {
    const started = performance.now()
    const manifest = await backupDatabase(target, file, { uploadsDir: config.uploadsDir, signal })
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0)
    console.log(
      `Copia escrita en ${file}: ${manifest.tables.length} tablas, ${rows} filas, ${manifest.files?.count ?? 0} archivos subidos, PostgreSQL ${manifest.serverVersion}, en ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    )
    if (manifest.missingFiles.length) {
      console.warn(
        `Atención: ${manifest.missingFiles.length} archivos subidos no están en ${config.uploadsDir} o no coinciden con su huella, y no van en la copia: ${manifest.missingFiles.join(', ')}`,
      )
    }
  } finally {
    await done()
  }
} catch (err) {
  reportCliError(err, 'No se pudo hacer la copia')
}
