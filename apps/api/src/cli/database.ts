import path from 'node:path'
import type { Config } from '../config'
import { BackupError } from '../db/backup'
import { type ConnectionTarget, type Database, openDatabase } from '../db/client'
import { attachOrStartEmbedded, StartError } from '../db/embedded'

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

/** A file argument, relative to where `npm run` was typed (npm runs scripts from the repository root). */
export function userPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file)
}

/** Prints a tool's failure for a person (no stack for the expected ones) and sets the exit code. */
export function reportCliError(err: unknown, prefix: string): void {
  console.error(err instanceof StartError || err instanceof BackupError ? err.message : `${prefix}: ${(err as Error).message}`)
  process.exitCode = 1
}
