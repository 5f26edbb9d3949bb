import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core'

/**
 * Every entity of SPEC §3. SQL is snake_case (Drizzle `casing: 'snake_case'`).
 * Searches use `f_unaccent(lower(...))` (an IMMUTABLE wrapper created by the first migration) with
 * trigram GIN indexes, so `q` is case- and accent-insensitive and indexed (DECISIONS A4).
 */
const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}

export const empresas = pgTable(
  'empresas',
  {
    id: serial().primaryKey(),
    nombre: varchar({ length: 100 }).notNull(),
    logoUrl: text(),
    ...timestamps,
  },
  (t) => [index('empresas_nombre_sort_idx').on(sql`f_unaccent(lower(${t.nombre}))`)],
)

export const viviendas = pgTable(
  'viviendas',
  {
    id: serial().primaryKey(),
    nombre: varchar({ length: 200 }).notNull(),
    empresaId: integer()
      .notNull()
      .references(() => empresas.id, { onDelete: 'restrict' }),
    /** Case- and accent-free sort key, stored so sorting never calls f_unaccent per row. */
    ordenNombre: text().generatedAlwaysAs(sql`f_unaccent(lower(nombre))`),
    ...timestamps,
  },
  (t) => [
    index('viviendas_empresa_idx').on(t.empresaId),
    index('viviendas_orden_nombre_idx').on(t.ordenNombre, t.id),
    index('viviendas_nombre_trgm_idx').using('gin', sql`f_unaccent(lower(${t.nombre})) gin_trgm_ops`),
  ],
)

export const usuarios = pgTable(
  'usuarios',
  {
    id: serial().primaryKey(),
    nombre: varchar({ length: 50 }).notNull(),
    apellidos: varchar({ length: 100 }).notNull(),
    nif: varchar({ length: 9 }).notNull(),
    gradoDependencia: varchar({ length: 3 }),
    fotoUrl: text(),
    /** One home at a time (issue 3); SPEC's `viviendas` list is this link. */
    viviendaId: integer().references(() => viviendas.id, { onDelete: 'restrict' }),
    /**
     * Normalised search text and sort keys, stored: the trigram index's recheck and the sorts read plain
     * text instead of calling f_unaccent for every matching row (README: Performance).
     */
    busqueda: text().generatedAlwaysAs(sql`f_unaccent(lower(nombre || ' ' || apellidos || ' ' || nif))`),
    ordenNombre: text().generatedAlwaysAs(sql`f_unaccent(lower(nombre))`),
    ordenApellidos: text().generatedAlwaysAs(sql`f_unaccent(lower(apellidos))`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('usuarios_nif_unique').on(t.nif),
    index('usuarios_vivienda_idx').on(t.viviendaId),
    index('usuarios_orden_apellidos_idx').on(t.ordenApellidos, t.ordenNombre, t.id),
    index('usuarios_orden_nombre_idx').on(t.ordenNombre, t.ordenApellidos, t.id),
    index('usuarios_busqueda_trgm_idx').using('gin', sql`${t.busqueda} gin_trgm_ops`),
    check('usuarios_grado_check', sql`${t.gradoDependencia} in ('PVS', 'PEI')`),
  ],
)

export const contactos = pgTable(
  'contactos',
  {
    id: serial().primaryKey(),
    nombreComercial: varchar({ length: 100 }).notNull(),
    agente: varchar({ length: 60 }).notNull(),
    correo: varchar({ length: 254 }).notNull(),
    telefono: varchar({ length: 20 }).notNull(),
    empresaId: integer()
      .notNull()
      .references(() => empresas.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    index('contactos_empresa_idx').on(t.empresaId),
    index('contactos_search_trgm_idx').using(
      'gin',
      sql`f_unaccent(lower(${t.nombreComercial} || ' ' || ${t.agente} || ' ' || ${t.correo} || ' ' || ${t.telefono})) gin_trgm_ops`,
    ),
  ],
)

export const trabajadores = pgTable(
  'trabajadores',
  {
    id: serial().primaryKey(),
    nombre: varchar({ length: 60 }).notNull(),
    apellidos: varchar({ length: 100 }).notNull(),
    email: varchar({ length: 254 }).notNull(),
    nif: varchar({ length: 10 }).notNull(),
    rol: varchar({ length: 10 }).notNull().default('EMPLEADO'),
    activo: boolean().notNull().default(true),
    passwordHash: text().notNull(),
    passwordTemporal: boolean().notNull().default(true),
    /** DECISIONS S2: bumped on password change, deactivation; tokens carrying an older one are refused. */
    tokenVersion: integer().notNull().default(0),
    fotoUrl: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('trabajadores_email_unique').on(sql`lower(${t.email})`),
    index('trabajadores_search_trgm_idx').using(
      'gin',
      sql`f_unaccent(lower(${t.nombre} || ' ' || ${t.apellidos} || ' ' || ${t.email} || ' ' || ${t.nif})) gin_trgm_ops`,
    ),
    check('trabajadores_rol_check', sql`${t.rol} in ('SUPERADMIN', 'ADMIN', 'EMPLEADO')`),
  ],
)

export const trabajadorEmpresas = pgTable(
  'trabajador_empresas',
  {
    trabajadorId: integer()
      .notNull()
      .references(() => trabajadores.id, { onDelete: 'cascade' }),
    empresaId: integer()
      .notNull()
      .references(() => empresas.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.trabajadorId, t.empresaId] }), index('trabajador_empresas_empresa_idx').on(t.empresaId)],
)

export const planingTareas = pgTable(
  'planing_tareas',
  {
    id: serial().primaryKey(),
    fecha: timestamp({ withTimezone: true }).notNull(),
    titulo: varchar({ length: 200 }).notNull(),
    descripcion: text().notNull(),
    notificable: boolean().notNull().default(false),
    /** DECISIONS D4: the company whose residents the task concerns. */
    empresaId: integer().references(() => empresas.id, { onDelete: 'cascade' }),
    creadorId: integer().references(() => trabajadores.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('planing_tareas_fecha_idx').on(t.fecha), index('planing_tareas_empresa_idx').on(t.empresaId)],
)

export const planingTareaUsuarios = pgTable(
  'planing_tarea_usuarios',
  {
    tareaId: integer()
      .notNull()
      .references(() => planingTareas.id, { onDelete: 'cascade' }),
    usuarioId: integer()
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tareaId, t.usuarioId] }), index('planing_tarea_usuarios_usuario_idx').on(t.usuarioId)],
)

export const tareasTrabajador = pgTable(
  'tareas_trabajador',
  {
    id: serial().primaryKey(),
    titulo: varchar({ length: 200 }).notNull(),
    descripcion: text().notNull(),
    fecha: timestamp({ withTimezone: true }).notNull(),
    prioridad: varchar({ length: 5 }).notNull().default('MEDIA'),
    completada: boolean().notNull().default(false),
    viviendaId: integer().references(() => viviendas.id, { onDelete: 'set null' }),
    trabajadorId: integer()
      .notNull()
      .references(() => trabajadores.id, { onDelete: 'cascade' }),
    creadorId: integer().references(() => trabajadores.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('tareas_trabajador_trabajador_idx').on(t.trabajadorId, t.completada, t.fecha),
    index('tareas_trabajador_vivienda_idx').on(t.viviendaId),
    check('tareas_trabajador_prioridad_check', sql`${t.prioridad} in ('ALTA', 'MEDIA', 'BAJA')`),
  ],
)

export const presupuestos = pgTable(
  'presupuestos',
  {
    id: serial().primaryKey(),
    descripcion: varchar({ length: 200 }).notNull(),
    /** DECISIONS A6: exact decimal, never a float. */
    precio: numeric({ precision: 12, scale: 2 }).notNull(),
    fechaPrevista: timestamp({ withTimezone: true }),
    estado: varchar({ length: 25 }).notNull().default('PENDIENTE_APROBACION'),
    archivoUrl: text(),
    viviendaId: integer()
      .notNull()
      .references(() => viviendas.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    index('presupuestos_vivienda_idx').on(t.viviendaId),
    index('presupuestos_estado_idx').on(t.estado),
    index('presupuestos_fecha_idx').on(t.fechaPrevista),
    index('presupuestos_descripcion_trgm_idx').using('gin', sql`f_unaccent(lower(${t.descripcion})) gin_trgm_ops`),
    check('presupuestos_precio_check', sql`${t.precio} > 0`),
    check('presupuestos_estado_check', sql`${t.estado} in ('PENDIENTE_APROBACION', 'APROBADO', 'REALIZADO')`),
  ],
)

export const documentosUsuario = pgTable(
  'documentos_usuario',
  {
    id: serial().primaryKey(),
    titulo: varchar({ length: 120 }).notNull(),
    archivoUrl: text(),
    fecha: timestamp({ withTimezone: true }).notNull(),
    usuarioId: integer()
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    index('documentos_usuario_usuario_idx').on(t.usuarioId, t.fecha),
    /** DECISIONS D3: the PIR document is found by its normalised title. */
    index('documentos_usuario_pir_idx').on(t.usuarioId, t.fecha).where(sql`upper(trim(${t.titulo})) = 'PIR'`),
  ],
)

export const cajaUsuario = pgTable(
  'caja_usuario',
  {
    id: serial().primaryKey(),
    concepto: varchar({ length: 150 }).notNull(),
    /** DECISIONS A6: signed exact decimal; negatives are outflows. */
    cantidad: numeric({ precision: 12, scale: 2 }).notNull(),
    fecha: timestamp({ withTimezone: true }).notNull(),
    usuarioId: integer()
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    index('caja_usuario_usuario_idx').on(t.usuarioId, t.fecha),
    check('caja_usuario_cantidad_check', sql`${t.cantidad} <> 0`),
  ],
)

export const notificaciones = pgTable(
  'notificaciones',
  {
    id: serial().primaryKey(),
    titulo: varchar({ length: 200 }).notNull(),
    descripcion: text().notNull(),
    fechaNotificacion: timestamp({ withTimezone: true }).notNull().defaultNow(),
    tipo: varchar({ length: 10 }).notNull().default('info'),
    trabajadorId: integer()
      .notNull()
      .references(() => trabajadores.id, { onDelete: 'cascade' }),
    /** DECISIONS D3: once per worker, resident, state and expiry date, even with many processes. */
    dedupeKey: varchar({ length: 200 }),
  },
  (t) => [
    index('notificaciones_trabajador_idx').on(t.trabajadorId, t.fechaNotificacion),
    uniqueIndex('notificaciones_dedupe_unique').on(t.trabajadorId, t.dedupeKey),
  ],
)

/** DECISIONS L1-L3: append-only activity log written by the server. */
export const logs = pgTable(
  'logs',
  {
    id: serial().primaryKey(),
    fecha: timestamp({ withTimezone: true }).notNull().defaultNow(),
    trabajadorId: integer().references(() => trabajadores.id, { onDelete: 'set null' }),
    /** Who, kept even when the worker is deleted later. */
    trabajadorEmail: varchar({ length: 254 }),
    accion: varchar({ length: 100 }).notNull(),
    url: varchar({ length: 300 }).notNull().default(''),
    viviendaId: integer().references(() => viviendas.id, { onDelete: 'set null' }),
    usuarioId: integer(),
    tipo: varchar({ length: 10 }).notNull().default('info'),
    descripcion: text().notNull().default(''),
    /** L3: previous and new values of a change. */
    datos: jsonb(),
  },
  (t) => [
    index('logs_fecha_idx').on(t.fecha),
    index('logs_trabajador_idx').on(t.trabajadorId, t.fecha),
    index('logs_vivienda_idx').on(t.viviendaId),
  ],
)

/** DECISIONS S5: uploaded files, stored under a random name outside the web root. */
export const uploads = pgTable('uploads', {
  id: uuid().primaryKey().defaultRandom(),
  nombreOriginal: varchar({ length: 255 }).notNull(),
  mime: varchar({ length: 100 }).notNull(),
  tamano: integer().notNull(),
  trabajadorId: integer().references(() => trabajadores.id, { onDelete: 'set null' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/** DECISIONS S4: one-time password reset links (only the hash of the token is kept). */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial().primaryKey(),
    trabajadorId: integer()
      .notNull()
      .references(() => trabajadores.id, { onDelete: 'cascade' }),
    tokenHash: varchar({ length: 64 }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_resets_token_unique').on(t.tokenHash)],
)

/**
 * DECISIONS S3: failed logins, one row per failure and key ('email:…' or 'ip:…'), kept only for the
 * limiter's window. In the database rather than in memory, so every API process sharing it counts the
 * same failures (DECISIONS R, scale-out).
 */
export const intentosLogin = pgTable(
  'intentos_login',
  {
    id: serial().primaryKey(),
    clave: text().notNull(),
    fecha: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('intentos_login_clave_fecha_idx').on(t.clave, t.fecha), index('intentos_login_fecha_idx').on(t.fecha)],
)
