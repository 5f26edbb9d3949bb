import { trabajadorCreateSchema } from '@vb/shared'
import { empresas } from '../db/schema'
import { createTrabajador } from '../modules/trabajadores/trabajadores.service'
import { cliArgs, cliConfig, openCliDatabase, reportCliError } from './database'

/**
 * DECISIONS R: `npm run admin:create -- --email … --nombre … --apellidos … --nif …` creates the first
 * SUPERADMIN (linked to every company) and prints its one-time temporary password, through the same
 * service as POST /api/trabajadores.
 */
const USAGE =
  'Uso: npm run admin:create -- --email correo@empresa.es --nombre Nombre --apellidos "Apellido Apellido" --nif 12345678Z'
const { values } = cliArgs(
  { options: { email: { type: 'string' }, nombre: { type: 'string' }, apellidos: { type: 'string' }, nif: { type: 'string' } } },
  USAGE,
)
const input = trabajadorCreateSchema.safeParse({ ...values, rol: 'SUPERADMIN' })
if (!input.success) {
  for (const issue of input.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`)
  console.error(USAGE)
  process.exit(2)
}
const config = cliConfig()
try {
  const database = await openCliDatabase(config)
  try {
    const all = await database.db.select({ id: empresas.id }).from(empresas)
    const { trabajador, password } = await createTrabajador(database, null, { ...input.data, empresaIds: all.map((e) => e.id) })
    console.log(`SUPERADMIN ${trabajador.email} creado.`)
    console.log(`Contraseña temporal (se muestra una sola vez; se pedirá cambiarla al entrar): ${password}`)
  } finally {
    await database.close()
  }
} catch (err) {
  reportCliError(err, 'No se pudo crear el SUPERADMIN')
}
