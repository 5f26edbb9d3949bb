import path from 'node:path'
import { type ParseArgsConfig, parseArgs } from 'node:util'
import { type Config, ConfigError, readConfig } from '../config'
import { BackupError } from '../db/backup'
import { type ConnectionTarget, type Database, DatabaseUnreachableError, openDatabase } from '../db/client'
import { attachOrStartEmbedded, StartError } from '../db/embedded'
import { UnsafePathError } from '../lib/data-dir'

/**
 * The database a command-line tool works on: DATABASE_URL, or the embedded server of DATA_DIR (the
 * running server's, when `npm start` is up, otherwise one started for the tool and stopped after it).
 */
export async function openCliDatabase(config: Config, options: { migrate?: boolean } = {}): Promise<Database> {
  if (config.databaseUrl) return openDatabase(config.databaseUrl, { poolSize: 2, statementTimeoutMs: 0, ...options })
  const server = await attachOrStartEmbedded(config.dataDir, (m) => console.log(m))
  try {
    const database = await openDatabase(server.connection, { poolSize: 2, statementTimeoutMs: 0, ...options })
    return {
      ...database,
      async close() {
        await database.close()
        await server.stop()
      },
    }
  } catch (err) {
    await server.stop()
    throw err
  }
}

/**
 * Where a backup or restore works: DATABASE_URL, or the embedded server of DATA_DIR (a restore needs the
 * app stopped, so that nothing writes while the data is replaced).
 */
export async function cliTarget(
  config: Config,
  exclusive: boolean,
): Promise<{ target: ConnectionTarget; done(): Promise<void> }> {
  if (config.databaseUrl) return { target: config.databaseUrl, done: async () => {} }
  const server = await attachOrStartEmbedded(config.dataDir, (m) => console.log(m), { exclusive })
  return { target: server.connection, done: () => server.stop() }
}

/**
 * A tool's command line, read by node:util's parseArgs. `--help` or `-h` prints the usage and ends; an option the
 * tool does not know, one without its value or an argument too many is said in Spanish with the usage (status 2),
 * not as a stack trace.
 */
export function cliArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2)
  if (args.some((a) => a === '--help' || a === '-h')) {
    console.log(usage)
    process.exit(0)
  }
  try {
    return parseArgs(config)
  } catch (err) {
    const code = (err as { code?: string }).code ?? ''
    if (!code.startsWith('ERR_PARSE_ARGS_')) throw err
    const message = (err as Error).message
    const what = (/'([^' ]+)/.exec(message)?.[1] ?? '').replace(/=.*$/, '')
    const said: Record<string, string> = {
      ERR_PARSE_ARGS_UNKNOWN_OPTION: `Opción desconocida: ${what}.`,
      ERR_PARSE_ARGS_INVALID_OPTION_VALUE: message.includes('argument missing')
        ? `La opción ${what} necesita un valor.`
        : `La opción ${what} no lleva valor.`,
      ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: `Argumento de más: ${what}.`,
    }
    console.error(said[code] ?? 'No se entiende la línea de órdenes.')
    console.error(usage)
    process.exit(2)
  }
}

/** A file argument, relative to where `npm run` was typed (npm runs scripts from the repository root). */
export function userPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file)
}

/** The environment, checked as the server checks it: a variable that is wrong ends the tool with its Spanish line. */
export function cliConfig(): Config {
  try {
    return readConfig(process.env, process.cwd())
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    console.error(err.message)
    process.exit(1)
  }
}

/** Prints a tool's failure for a person (no stack for the expected ones) and sets the exit code. */
export function reportCliError(err: unknown, prefix: string): void {
  const expected =
    err instanceof StartError ||
    err instanceof BackupError ||
    err instanceof UnsafePathError ||
    err instanceof DatabaseUnreachableError
  console.error(expected ? err.message : `${prefix}: ${(err as Error).message}`)
  process.exitCode ||= 1
}

/**
 * Ctrl-C (SIGINT) or SIGTERM during a backup or restore: the first asks the work to stop cleanly (it
 * removes what it wrote and rolls back), a second one ends the process at once.
 */
export function stopOnSignals(message: string): AbortSignal {
  const controller = new AbortController()
  const stop = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143)
    console.error(message)
    process.exitCode = signal === 'SIGINT' ? 130 : 143
    controller.abort()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  return controller.signal
}
