CREATE TABLE "caja_usuario" (
	"id" serial PRIMARY KEY NOT NULL,
	"concepto" varchar(150) NOT NULL,
	"cantidad" numeric(12, 2) NOT NULL,
	"fecha" timestamp with time zone NOT NULL,
	"usuario_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "caja_usuario_cantidad_check" CHECK ("caja_usuario"."cantidad" <> 0)
);
--> statement-breakpoint
CREATE TABLE "contactos" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre_comercial" varchar(100) NOT NULL,
	"agente" varchar(60) NOT NULL,
	"correo" varchar(254) NOT NULL,
	"telefono" varchar(20) NOT NULL,
	"empresa_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documentos_usuario" (
	"id" serial PRIMARY KEY NOT NULL,
	"titulo" varchar(120) NOT NULL,
	"archivo_url" text,
	"fecha" timestamp with time zone NOT NULL,
	"usuario_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "empresas" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" varchar(100) NOT NULL,
	"logo_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"fecha" timestamp with time zone DEFAULT now() NOT NULL,
	"trabajador_id" integer,
	"trabajador_email" varchar(254),
	"accion" varchar(100) NOT NULL,
	"url" varchar(300) DEFAULT '' NOT NULL,
	"vivienda_id" integer,
	"usuario_id" integer,
	"tipo" varchar(10) DEFAULT 'info' NOT NULL,
	"descripcion" text DEFAULT '' NOT NULL,
	"datos" jsonb
);
--> statement-breakpoint
CREATE TABLE "notificaciones" (
	"id" serial PRIMARY KEY NOT NULL,
	"titulo" varchar(200) NOT NULL,
	"descripcion" text NOT NULL,
	"fecha_notificacion" timestamp with time zone DEFAULT now() NOT NULL,
	"tipo" varchar(10) DEFAULT 'info' NOT NULL,
	"trabajador_id" integer NOT NULL,
	"dedupe_key" varchar(200)
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" serial PRIMARY KEY NOT NULL,
	"trabajador_id" integer NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "planing_tarea_usuarios" (
	"tarea_id" integer NOT NULL,
	"usuario_id" integer NOT NULL,
	CONSTRAINT "planing_tarea_usuarios_tarea_id_usuario_id_pk" PRIMARY KEY("tarea_id","usuario_id")
);
--> statement-breakpoint
CREATE TABLE "planing_tareas" (
	"id" serial PRIMARY KEY NOT NULL,
	"fecha" timestamp with time zone NOT NULL,
	"titulo" varchar(200) NOT NULL,
	"descripcion" text NOT NULL,
	"notificable" boolean DEFAULT false NOT NULL,
	"empresa_id" integer,
	"creador_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "presupuestos" (
	"id" serial PRIMARY KEY NOT NULL,
	"descripcion" varchar(200) NOT NULL,
	"precio" numeric(12, 2) NOT NULL,
	"fecha_prevista" timestamp with time zone,
	"estado" varchar(25) DEFAULT 'PENDIENTE_APROBACION' NOT NULL,
	"archivo_url" text,
	"vivienda_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "presupuestos_precio_check" CHECK ("presupuestos"."precio" > 0),
	CONSTRAINT "presupuestos_estado_check" CHECK ("presupuestos"."estado" in ('PENDIENTE_APROBACION', 'APROBADO', 'REALIZADO'))
);
--> statement-breakpoint
CREATE TABLE "tareas_trabajador" (
	"id" serial PRIMARY KEY NOT NULL,
	"titulo" varchar(200) NOT NULL,
	"descripcion" text NOT NULL,
	"fecha" timestamp with time zone NOT NULL,
	"prioridad" varchar(5) DEFAULT 'MEDIA' NOT NULL,
	"completada" boolean DEFAULT false NOT NULL,
	"vivienda_id" integer,
	"trabajador_id" integer NOT NULL,
	"creador_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tareas_trabajador_prioridad_check" CHECK ("tareas_trabajador"."prioridad" in ('ALTA', 'MEDIA', 'BAJA'))
);
--> statement-breakpoint
CREATE TABLE "trabajador_empresas" (
	"trabajador_id" integer NOT NULL,
	"empresa_id" integer NOT NULL,
	CONSTRAINT "trabajador_empresas_trabajador_id_empresa_id_pk" PRIMARY KEY("trabajador_id","empresa_id")
);
--> statement-breakpoint
CREATE TABLE "trabajadores" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" varchar(60) NOT NULL,
	"apellidos" varchar(100) NOT NULL,
	"email" varchar(254) NOT NULL,
	"nif" varchar(10) NOT NULL,
	"rol" varchar(10) DEFAULT 'EMPLEADO' NOT NULL,
	"activo" boolean DEFAULT true NOT NULL,
	"password_hash" text NOT NULL,
	"password_temporal" boolean DEFAULT true NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"foto_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trabajadores_rol_check" CHECK ("trabajadores"."rol" in ('SUPERADMIN', 'ADMIN', 'EMPLEADO'))
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"nombre_original" varchar(255) NOT NULL,
	"mime" varchar(100) NOT NULL,
	"tamano" integer NOT NULL,
	"trabajador_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usuarios" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" varchar(50) NOT NULL,
	"apellidos" varchar(100) NOT NULL,
	"nif" varchar(9) NOT NULL,
	"grado_dependencia" varchar(3),
	"foto_url" text,
	"vivienda_id" integer,
	"busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(nombre || ' ' || apellidos || ' ' || nif))) STORED,
	"orden_nombre" text GENERATED ALWAYS AS (f_unaccent(lower(nombre))) STORED,
	"orden_apellidos" text GENERATED ALWAYS AS (f_unaccent(lower(apellidos))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usuarios_grado_check" CHECK ("usuarios"."grado_dependencia" in ('PVS', 'PEI'))
);
--> statement-breakpoint
CREATE TABLE "viviendas" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" varchar(200) NOT NULL,
	"empresa_id" integer NOT NULL,
	"orden_nombre" text GENERATED ALWAYS AS (f_unaccent(lower(nombre))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "caja_usuario" ADD CONSTRAINT "caja_usuario_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contactos" ADD CONSTRAINT "contactos_empresa_id_empresas_id_fk" FOREIGN KEY ("empresa_id") REFERENCES "public"."empresas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documentos_usuario" ADD CONSTRAINT "documentos_usuario_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_trabajador_id_trabajadores_id_fk" FOREIGN KEY ("trabajador_id") REFERENCES "public"."trabajadores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_vivienda_id_viviendas_id_fk" FOREIGN KEY ("vivienda_id") REFERENCES "public"."viviendas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificaciones" ADD CONSTRAINT "notificaciones_trabajador_id_trabajadores_id_fk" FOREIGN KEY ("trabajador_id") REFERENCES "public"."trabajadores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_trabajador_id_trabajadores_id_fk" FOREIGN KEY ("trabajador_id") REFERENCES "public"."trabajadores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planing_tarea_usuarios" ADD CONSTRAINT "planing_tarea_usuarios_tarea_id_planing_tareas_id_fk" FOREIGN KEY ("tarea_id") REFERENCES "public"."planing_tareas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planing_tarea_usuarios" ADD CONSTRAINT "planing_tarea_usuarios_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planing_tareas" ADD CONSTRAINT "planing_tareas_empresa_id_empresas_id_fk" FOREIGN KEY ("empresa_id") REFERENCES "public"."empresas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planing_tareas" ADD CONSTRAINT "planing_tareas_creador_id_trabajadores_id_fk" FOREIGN KEY ("creador_id") REFERENCES "public"."trabajadores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presupuestos" ADD CONSTRAINT "presupuestos_vivienda_id_viviendas_id_fk" FOREIGN KEY ("vivienda_id") REFERENCES "public"."viviendas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tareas_trabajador" ADD CONSTRAINT "tareas_trabajador_vivienda_id_viviendas_id_fk" FOREIGN KEY ("vivienda_id") REFERENCES "public"."viviendas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tareas_trabajador" ADD CONSTRAINT "tareas_trabajador_trabajador_id_trabajadores_id_fk" FOREIGN KEY ("trabajador_id") REFERENCES "public"."trabajadores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tareas_trabajador" ADD CONSTRAINT "tareas_trabajador_creador_id_trabajadores_id_fk" FOREIGN KEY ("creador_id") REFERENCES "public"."trabajadores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trabajador_empresas" ADD CONSTRAINT "trabajador_empresas_trabajador_id_trabajadores_id_fk" FOREIGN KEY ("trabajador_id") REFERENCES "public"."trabajadores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trabajador_empresas" ADD CONSTRAINT "trabajador_empresas_empresa_id_empresas_id_fk" FOREIGN KEY ("empresa_id") REFERENCES "public"."empresas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_trabajador_id_trabajadores_id_fk" FOREIGN KEY ("trabajador_id") REFERENCES "public"."trabajadores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usuarios" ADD CONSTRAINT "usuarios_vivienda_id_viviendas_id_fk" FOREIGN KEY ("vivienda_id") REFERENCES "public"."viviendas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viviendas" ADD CONSTRAINT "viviendas_empresa_id_empresas_id_fk" FOREIGN KEY ("empresa_id") REFERENCES "public"."empresas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "caja_usuario_usuario_idx" ON "caja_usuario" USING btree ("usuario_id","fecha");--> statement-breakpoint
CREATE INDEX "contactos_empresa_idx" ON "contactos" USING btree ("empresa_id");--> statement-breakpoint
CREATE INDEX "contactos_search_trgm_idx" ON "contactos" USING gin (f_unaccent(lower("nombre_comercial" || ' ' || "agente" || ' ' || "correo" || ' ' || "telefono")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documentos_usuario_usuario_idx" ON "documentos_usuario" USING btree ("usuario_id","fecha");--> statement-breakpoint
CREATE INDEX "documentos_usuario_pir_idx" ON "documentos_usuario" USING btree ("usuario_id","fecha") WHERE upper(trim("documentos_usuario"."titulo")) = 'PIR';--> statement-breakpoint
CREATE INDEX "empresas_nombre_sort_idx" ON "empresas" USING btree (f_unaccent(lower("nombre")));--> statement-breakpoint
CREATE INDEX "logs_fecha_idx" ON "logs" USING btree ("fecha");--> statement-breakpoint
CREATE INDEX "logs_trabajador_idx" ON "logs" USING btree ("trabajador_id","fecha");--> statement-breakpoint
CREATE INDEX "logs_vivienda_idx" ON "logs" USING btree ("vivienda_id");--> statement-breakpoint
CREATE INDEX "notificaciones_trabajador_idx" ON "notificaciones" USING btree ("trabajador_id","fecha_notificacion");--> statement-breakpoint
CREATE UNIQUE INDEX "notificaciones_dedupe_unique" ON "notificaciones" USING btree ("trabajador_id","dedupe_key");--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_unique" ON "password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "planing_tarea_usuarios_usuario_idx" ON "planing_tarea_usuarios" USING btree ("usuario_id");--> statement-breakpoint
CREATE INDEX "planing_tareas_fecha_idx" ON "planing_tareas" USING btree ("fecha");--> statement-breakpoint
CREATE INDEX "planing_tareas_empresa_idx" ON "planing_tareas" USING btree ("empresa_id");--> statement-breakpoint
CREATE INDEX "presupuestos_vivienda_idx" ON "presupuestos" USING btree ("vivienda_id");--> statement-breakpoint
CREATE INDEX "presupuestos_estado_idx" ON "presupuestos" USING btree ("estado");--> statement-breakpoint
CREATE INDEX "presupuestos_fecha_idx" ON "presupuestos" USING btree ("fecha_prevista");--> statement-breakpoint
CREATE INDEX "presupuestos_descripcion_trgm_idx" ON "presupuestos" USING gin (f_unaccent(lower("descripcion")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tareas_trabajador_trabajador_idx" ON "tareas_trabajador" USING btree ("trabajador_id","completada","fecha");--> statement-breakpoint
CREATE INDEX "tareas_trabajador_vivienda_idx" ON "tareas_trabajador" USING btree ("vivienda_id");--> statement-breakpoint
CREATE INDEX "trabajador_empresas_empresa_idx" ON "trabajador_empresas" USING btree ("empresa_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trabajadores_email_unique" ON "trabajadores" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "trabajadores_search_trgm_idx" ON "trabajadores" USING gin (f_unaccent(lower("nombre" || ' ' || "apellidos" || ' ' || "email" || ' ' || "nif")) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "usuarios_nif_unique" ON "usuarios" USING btree ("nif");--> statement-breakpoint
CREATE INDEX "usuarios_vivienda_idx" ON "usuarios" USING btree ("vivienda_id");--> statement-breakpoint
CREATE INDEX "usuarios_orden_apellidos_idx" ON "usuarios" USING btree ("orden_apellidos","orden_nombre","id");--> statement-breakpoint
CREATE INDEX "usuarios_orden_nombre_idx" ON "usuarios" USING btree ("orden_nombre","orden_apellidos","id");--> statement-breakpoint
CREATE INDEX "usuarios_busqueda_trgm_idx" ON "usuarios" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "viviendas_empresa_idx" ON "viviendas" USING btree ("empresa_id");--> statement-breakpoint
CREATE INDEX "viviendas_orden_nombre_idx" ON "viviendas" USING btree ("orden_nombre","id");--> statement-breakpoint
CREATE INDEX "viviendas_nombre_trgm_idx" ON "viviendas" USING gin (f_unaccent(lower("nombre")) gin_trgm_ops);