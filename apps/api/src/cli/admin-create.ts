import { parseArgs } from 'node:util'
import { normalizeNif, trabajadorNifSchema } from '@vb/shared'
import { z } from 'zod'
import { readConfig } from '../config'
import { openPglite, openPostgres } from '../db/client'
import { empresas, trabajadorEmpresas, trabajadores } from '../db/schema'
import { writeLog } from '../lib/activity-log'
import { generateTemporaryPassword, hashPassword } from '../lib/password'

/**
 * DECISIONS R: `npm run admin:create -- --email … --nombre … --apellidos … --nif …` creates the first
 * SUPERADMIN (linked to every company) and prints its one-time temporary password.
 */
const { values } = parseArgs({
  options: { email: { type: 'string' }, nombre: { type: 'string' }, apellidos: { type: 'string' }, nif: { type: 'string' } },
})
const input = z
  .object({
    email: z.email('El email no es válido'),
    nombre: z.string().trim().min(2, 'El nombre es obligatorio'),
    apellidos: z.string().trim().min(2, 'Los apellidos son obligatorios'),
    nif: trabajadorNifSchema,
  })
  .safeParse(values)
if (!input.success) {
  for (const issue of input.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`)
  console.error(
    'Uso: npm run admin:create -- --email correo@empresa.es --nombre Nombre --apellidos "Apellido Apellido" --nif 12345678Z',
  )
  process.exit(2)
}
const config = readConfig(process.env, process.cwd())
const database = config.databaseUrl ? await openPostgres(config.databaseUrl, 1) : await openPglite(config.dataDir)
try {
  const password = generateTemporaryPassword()
  const passwordHash = await hashPassword(password)
  await database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(trabajadores)
      .values({
        email: input.data.email.toLowerCase(),
        nombre: input.data.nombre,
        apellidos: input.data.apellidos,
        nif: normalizeNif(input.data.nif),
        rol: 'SUPERADMIN',
        activo: true,
        passwordHash,
        passwordTemporal: true,
      })
      .returning()
    if (!row) throw new Error('No se pudo crear el trabajador')
    const all = await tx.select({ id: empresas.id }).from(empresas)
    if (all.length) await tx.insert(trabajadorEmpresas).values(all.map((e) => ({ trabajadorId: row.id, empresaId: e.id })))
    await writeLog(
      tx,
      { id: row.id, email: row.email },
      {
        accion: 'Crear trabajador',
        url: 'admin:create',
        tipo: 'success',
        descripcion: `SUPERADMIN creado desde la línea de órdenes: ${row.email}`,
      },
    )
  })
  console.log(`SUPERADMIN ${input.data.email} creado.`)
  console.log(`Contraseña temporal (se muestra una sola vez; se pedirá cambiarla al entrar): ${password}`)
} catch (err) {
  const code = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code
  console.error(
    code === '23505' ? 'Ya existe un trabajador con ese email.' : `No se pudo crear el SUPERADMIN: ${(err as Error).message}`,
  )
  process.exitCode = 1
} finally {
  await database.close()
}
