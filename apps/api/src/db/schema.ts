import { type AnyColumn, getTableName, sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  json,
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
/** The SQL (snake_case) name of a column declared in camelCase. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * DECISIONS A4: the one search definition of a table. Its searchable columns, folded to lower case without
 * accents into one stored column (a missing part counts as ''); `searchIndex` puts the trigram index on it,
 * and the list's `q` is matched against it (lib/resource.ts), so the index and the query cannot drift apart.
 */
function searchText(...columns: string[]) {
  const parts = columns.map((c) => `coalesce(${snake(c)}, '')`).join(` || ' ' || `)
  return text().generatedAlwaysAs(sql.raw(`f_unaccent(lower(${parts}))`))
}

/** The trigram index of a table's `busqueda` column (searchText). */
const searchIndex = (table: string, column: AnyPgColumn) =>
  index(`${table}_busqueda_trgm_idx`).using('gin', sql`${column} gin_trgm_ops`)

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
    busqueda: searchText('nombre'),
    ...timestamps,
  },
  (t) => [index('empresas_nombre_sort_idx').on(sql`f_unaccent(lower(${t.nombre}))`), searchIndex('empresas', t.busqueda)],
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
    busqueda: searchText('nombre'),
    ...timestamps,
  },
  (t) => [
    index('viviendas_empresa_idx').on(t.empresaId),
    index('viviendas_orden_nombre_idx').on(t.ordenNombre, t.id),
    searchIndex('viviendas', t.busqueda),
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
    /** One home at a time; SPEC's `viviendas` list is this link. */
    viviendaId: integer().references(() => viviendas.id, { onDelete: 'restrict' }),
    /**
     * Normalised search text and sort keys, stored: the trigram index's recheck and the sorts read plain
     * text instead of calling f_unaccent for every matching row (README: Performance).
     */
    busqueda: searchText('nombre', 'apellidos', 'nif'),
    ordenNombre: text().generatedAlwaysAs(sql`f_unaccent(lower(nombre))`),
    ordenApellidos: text().generatedAlwaysAs(sql`f_unaccent(lower(apellidos))`),
    /**
     * The home's sort key (its `orden_nombre`), kept by triggers (migration 0011): a resident's insert or move,
     * a home's rename. The sort by home reads one index instead of joining and sorting every resident.
     */
    viviendaOrden: text(),
    /**
     * The date of the resident's latest PIR document (DECISIONS D3), kept by a trigger on documentos_usuario
     * (migration 0012): lists and the start page read it instead of probing the documents of every resident.
     */
    pirFecha: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('usuarios_nif_unique').on(t.nif),
    index('usuarios_vivienda_idx').on(t.viviendaId),
    /** The start page's PIR counts: a company's residents and their latest PIR date, from the index alone. */
    index('usuarios_vivienda_pir_idx').on(t.viviendaId, t.pirFecha),
    index('usuarios_orden_apellidos_idx').on(t.ordenApellidos, t.ordenNombre, t.id),
    index('usuarios_orden_nombre_idx').on(t.ordenNombre, t.ordenApellidos, t.id),
    index('usuarios_orden_grado_idx').on(t.gradoDependencia, t.ordenApellidos, t.ordenNombre, t.id),
    index('usuarios_orden_vivienda_idx').on(t.viviendaOrden, t.ordenApellidos, t.ordenNombre, t.id),
    searchIndex('usuarios', t.busqueda),
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
      .references(() => empresas.id, { onDelete: 'restrict' }),
    busqueda: searchText('nombreComercial', 'agente', 'correo', 'telefono'),
    ...timestamps,
  },
  (t) => [index('contactos_empresa_idx').on(t.empresaId), searchIndex('contactos', t.busqueda)],
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
    busqueda: searchText('nombre', 'apellidos', 'email', 'nif'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('trabajadores_email_unique').on(sql`lower(${t.email})`),
    searchIndex('trabajadores', t.busqueda),
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
    empresaId: integer().references(() => empresas.id, { onDelete: 'restrict' }),
    /** SPEC §2.9: assigned with 'all' (every resident of the company; the links hold them as they were). */
    todos: boolean().notNull().default(false),
    creadorId: integer().references(() => trabajadores.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('planing_tareas_fecha_idx').on(t.fecha),
    // A company's month (the calendar) and its day (the start page) are one range scan.
    index('planing_tareas_empresa_fecha_idx').on(t.empresaId, t.fecha, t.id),
  ],
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

/**
 * Each task's residents as the calendar shows them ([id, nombre, apellidos, viviendaId, the home's nombre] in id
 * order), kept by triggers on the links, the residents and the homes (migration 0016): the month reads one row
 * per task instead of joining its links, residents and homes. None for a task for everyone (the calendar names no
 * one for it) or without residents.
 */
export const planingCalendarioUsuarios = pgTable('planing_calendario_usuarios', {
  tareaId: integer()
    .primaryKey()
    .references(() => planingTareas.id, { onDelete: 'cascade' }),
  usuarios: json().notNull(),
})

/**
 * The tables whose rows triggers make from other tables' (docs/architecture.md, "Copies kept by triggers"): derived,
 * not data. A backup leaves them out and a restore's triggers make them again (db/backup.ts); a deleted record's
 * log entry does not list them among the rows that went with it (lib/ownership.ts), as its own parts say the same.
 */
export const KEPT_BY_TRIGGERS: ReadonlySet<string> = new Set([getTableName(planingCalendarioUsuarios)])

export const tareasTrabajador = pgTable(
  'tareas_trabajador',
  {
    id: serial().primaryKey(),
    titulo: varchar({ length: 200 }).notNull(),
    descripcion: text().notNull(),
    fecha: timestamp({ withTimezone: true }).notNull(),
    prioridad: varchar({ length: 5 }).notNull().default('MEDIA'),
    completada: boolean().notNull().default(false),
    viviendaId: integer().references(() => viviendas.id, { onDelete: 'restrict' }),
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

/** The budgets' states in the order of their life (SPEC §4), the sort by state; indexed as it is written. */
export const estadoOrden = (estado: AnyColumn) =>
  sql`(case ${estado} when 'PENDIENTE_APROBACION' then 0 when 'APROBADO' then 1 else 2 end)`

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
      .references(() => viviendas.id, { onDelete: 'restrict' }),
    /**
     * Beyond SPEC: who last changed the state and when (who approved a spend). The name is kept beside the
     * id, so the row still says who it was after the worker is deleted.
     */
    estadoCambiadoPorId: integer().references(() => trabajadores.id, { onDelete: 'set null' }),
    estadoCambiadoPor: varchar({ length: 200 }),
    estadoCambiadoEn: timestamp({ withTimezone: true }),
    busqueda: searchText('descripcion'),
    /** Case- and accent-free sort key, stored and indexed (DECISIONS A4). */
    ordenDescripcion: text().generatedAlwaysAs(sql`f_unaccent(lower(descripcion))`),
    ...timestamps,
  },
  (t) => [
    // One home's budgets in one state (the screen's filters) is one index range.
    index('presupuestos_vivienda_estado_idx').on(t.viviendaId, t.estado),
    index('presupuestos_estado_idx').on(t.estado),
    // Each sort of the screen is one index read in order, with the keys that break its ties (the date, then the
    // id: lib/resource.ts): a company's page sorted by price or state sorted all of its budgets, and by date read
    // every budget of the dates it showed (many share one).
    index('presupuestos_fecha_idx').on(t.fechaPrevista, t.id),
    index('presupuestos_orden_descripcion_idx').on(t.ordenDescripcion, t.fechaPrevista, t.id),
    index('presupuestos_precio_idx').on(t.precio, t.fechaPrevista, t.id),
    index('presupuestos_estado_orden_idx').on(estadoOrden(t.estado), t.fechaPrevista, t.id),
    searchIndex('presupuestos', t.busqueda),
    check('presupuestos_precio_check', sql`${t.precio} > 0`),
    check('presupuestos_estado_check', sql`${t.estado} in ('PENDIENTE_APROBACION', 'APROBADO', 'REALIZADO')`),
  ],
)

export const documentosUsuario = pgTable(
  'documentos_usuario',
  {
    id: serial().primaryKey(),
    titulo: varchar({ length: 120 }).notNull(),
    /** An external http(s) URL (SPEC); null when the file is an upload (the `uploads` row points here, D8). */
    archivoUrl: text(),
    fecha: timestamp({ withTimezone: true }).notNull(),
    usuarioId: integer()
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    busqueda: searchText('titulo'),
    ...timestamps,
  },
  (t) => [
    index('documentos_usuario_usuario_idx').on(t.usuarioId, t.fecha),
    /** Every reachable resident's documents, newest first (D13). */
    index('documentos_usuario_fecha_idx').on(t.fecha, t.id),
    /** DECISIONS D3: the PIR document is found by its normalised title. */
    index('documentos_usuario_pir_idx').on(t.usuarioId, t.fecha).where(sql`upper(trim(${t.titulo})) = 'PIR'`),
    /** DECISIONS A4: `q` searches the título case- and accent-insensitively. */
    searchIndex('documentos_usuario', t.busqueda),
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
    /**
     * One resident's ledger in its order (fecha, id), covering the amount: the page, the balance, the
     * opening balance and the running balance are index-only range scans of this index (README: Performance).
     */
    index('caja_usuario_ledger_idx').on(t.usuarioId, t.fecha, t.id, t.cantidad),
    /** The movements of every resident a worker reaches, newest first (D13: a page never sorts the whole table). */
    index('caja_usuario_fecha_idx').on(t.fecha, t.id),
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
    /**
     * Dismissed (SPEC §4) by its worker. The row stays, so its dedupe key keeps saying it was sent: a
     * dismissed PIR warning does not come back the next day.
     */
    descartadaEn: timestamp({ withTimezone: true }),
  },
  (t) => [
    // A worker's bell, newest first (fecha desc, id desc: this index read backwards, 20 rows), its bounded count
    // (migration 0017 adds INCLUDE (descartada_en), which Drizzle cannot declare, so the count reads the index
    // alone), and the cascade of a worker's deletion. Without the id, the daily PIR run's thousands of warnings
    // of one instant were all read and sorted to show 20.
    index('notificaciones_trabajador_idx').on(t.trabajadorId, t.fechaNotificacion, t.id),
    // The key first: the daily PIR run asks, per batch of residents, which of their keys were sent to anyone
    // (pir.service.ts notSentYet), a few hundred probes here where the worker first took a scan of the table.
    uniqueIndex('notificaciones_dedupe_unique').on(t.dedupeKey, t.trabajadorId),
  ],
)

/**
 * DECISIONS L1-L3: the activity log, written by the server and append-only. No foreign keys: deleting a
 * worker or a home never rewrites an entry (L2), so the names are kept beside the ids; a trigger
 * (migration 0004) refuses UPDATE and DELETE.
 */
export const logs = pgTable(
  'logs',
  {
    id: serial().primaryKey(),
    fecha: timestamp({ withTimezone: true }).notNull().defaultNow(),
    trabajadorId: integer(),
    /**
     * Who, kept as it was when the entry was written: the given name and the surnames apart (SPEC §3), since
     * migration 0019. An entry written before holds the whole name in trabajador_nombre and no surnames.
     */
    trabajadorEmail: varchar({ length: 254 }),
    trabajadorNombre: varchar({ length: 200 }),
    trabajadorApellidos: varchar({ length: 200 }),
    accion: varchar({ length: 100 }).notNull(),
    url: varchar({ length: 300 }).notNull().default(''),
    viviendaId: integer(),
    viviendaNombre: varchar({ length: 200 }),
    usuarioId: integer(),
    tipo: varchar({ length: 10 }).notNull().default('info'),
    descripcion: text().notNull().default(''),
    /** L3: previous and new values of a change. */
    datos: jsonb(),
    /** The logs screen's free text searches the action and the description. */
    busqueda: searchText('accion', 'descripcion'),
  },
  (t) => [
    index('logs_fecha_idx').on(t.fecha, t.id),
    searchIndex('logs', t.busqueda),
    // The logs screen filters by worker or by home, newest first.
    index('logs_trabajador_fecha_idx').on(t.trabajadorId, t.fecha),
    index('logs_vivienda_fecha_idx').on(t.viviendaId, t.fecha),
  ],
)

/**
 * DECISIONS S5, D6, D8: uploaded files, stored under DATA_DIR/uploads with their random id as the file name.
 * A file belongs to its uploader until it is attached to one record (a document, a cash movement, a budget,
 * or a worker, as its photo);
 * from then on it is seen by whoever sees that record, and it goes with it (the foreign keys cascade;
 * the file on disk is removed after the commit, and by the daily sweep if that was missed).
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid().primaryKey().defaultRandom(),
    nombreOriginal: varchar({ length: 255 }).notNull(),
    mime: varchar({ length: 100 }).notNull(),
    tamano: integer().notNull(),
    /** Hex SHA-256 of the content, checked again by a restore. */
    sha256: varchar({ length: 64 }).notNull(),
    /** The uploader (owner while unattached). */
    trabajadorId: integer().references(() => trabajadores.id, { onDelete: 'set null' }),
    documentoId: integer().references(() => documentosUsuario.id, { onDelete: 'cascade' }),
    movimientoId: integer().references(() => cajaUsuario.id, { onDelete: 'cascade' }),
    /** SPEC §2.10: a worker's photo; it goes with the worker. */
    fotoTrabajadorId: integer().references(() => trabajadores.id, { onDelete: 'cascade' }),
    presupuestoId: integer().references(() => presupuestos.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One file per record, and a file on one record at most.
    uniqueIndex('uploads_documento_unique').on(t.documentoId),
    uniqueIndex('uploads_movimiento_unique').on(t.movimientoId),
    uniqueIndex('uploads_foto_trabajador_unique').on(t.fotoTrabajadorId),
    uniqueIndex('uploads_presupuesto_unique').on(t.presupuestoId),
    check(
      'uploads_un_adjunto_check',
      sql`num_nonnulls(${t.documentoId}, ${t.movimientoId}, ${t.presupuestoId}, ${t.fotoTrabajadorId}) <= 1`,
    ),
    index('uploads_sueltos_idx')
      .on(t.createdAt)
      .where(
        sql`${t.documentoId} is null and ${t.movimientoId} is null and ${t.presupuestoId} is null and ${t.fotoTrabajadorId} is null`,
      ),
  ],
)

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
