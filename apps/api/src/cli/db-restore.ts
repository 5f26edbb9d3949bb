import { existsSync } from 'node:fs'
import { restoreDatabase } from '../db/backup'
import { cliArgs, cliConfig, cliTarget, reportCliError, stopOnSignals, userPath } from './database'

/**
 * DECISIONS R, backups: `npm run db:restore -- FILE` loads a dump made by `db:backup` into an empty
 * database (the embedded server of DATA_DIR, with the app stopped, or DATABASE_URL); into one with data
 * only with `--force`, which replaces it. All or nothing: the file is checked whole first, then loaded in
 * one transaction; any failure, Ctrl-C included, leaves the database and the uploads folder as they were.
 */
const USAGE = 'Uso: npm run db:restore -- [--force] ARCHIVO   (--force: sustituye los datos de una base que ya los tiene)'
const { positionals, values } = cliArgs(
  { allowPositionals: true, options: { force: { type: 'boolean', default: false } } },
  USAGE,
)
if (positionals.length !== 1) {
  console.error(USAGE)
  process.exit(2)
}
const file = userPath(positionals[0] as string)
if (!existsSync(file)) {
  console.error(`No existe el archivo ${file}.`)
  process.exit(2)
}
const config = cliConfig()
const signal = stopOnSignals('Interrumpiendo la restauración: no se cambia nada…')
try {
  const { target, done } = await cliTarget(config, true)
  try {
    const { manifest, upgraded, files } = await restoreDatabase(target, file, {
      force: values.force,
      uploadsDir: config.uploadsDir,
      signal,
      progress: (message) => console.log(message),
    })
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0)
    console.log(
      `Copia del ${manifest.createdAt} restaurada: ${manifest.tables.length} tablas, ${rows} filas, ${files} archivos subidos en ${config.uploadsDir}.${upgraded ? ` Esquema actualizado con ${upgraded} migraciones posteriores.` : ''}`,
    )
  } finally {
    await done()
  }
} catch (err) {
  reportCliError(err, 'No se pudo restaurar la copia')
}
