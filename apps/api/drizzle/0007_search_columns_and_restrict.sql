ALTER TABLE "contactos" DROP CONSTRAINT "contactos_empresa_id_empresas_id_fk";
--> statement-breakpoint
ALTER TABLE "planing_tareas" DROP CONSTRAINT "planing_tareas_empresa_id_empresas_id_fk";
--> statement-breakpoint
ALTER TABLE "presupuestos" DROP CONSTRAINT "presupuestos_vivienda_id_viviendas_id_fk";
--> statement-breakpoint
ALTER TABLE "tareas_trabajador" DROP CONSTRAINT "tareas_trabajador_vivienda_id_viviendas_id_fk";
--> statement-breakpoint
DROP INDEX "contactos_search_trgm_idx";--> statement-breakpoint
DROP INDEX "documentos_usuario_titulo_trgm_idx";--> statement-breakpoint
DROP INDEX "presupuestos_descripcion_trgm_idx";--> statement-breakpoint
DROP INDEX "trabajadores_search_trgm_idx";--> statement-breakpoint
DROP INDEX "viviendas_nombre_trgm_idx";--> statement-breakpoint
ALTER TABLE "usuarios" drop column "busqueda";--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(nombre, '') || ' ' || coalesce(apellidos, '') || ' ' || coalesce(nif, '')))) STORED;--> statement-breakpoint
ALTER TABLE "contactos" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(nombre_comercial, '') || ' ' || coalesce(agente, '') || ' ' || coalesce(correo, '') || ' ' || coalesce(telefono, '')))) STORED;--> statement-breakpoint
ALTER TABLE "documentos_usuario" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(titulo, '')))) STORED;--> statement-breakpoint
ALTER TABLE "empresas" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(nombre, '')))) STORED;--> statement-breakpoint
ALTER TABLE "presupuestos" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(descripcion, '')))) STORED;--> statement-breakpoint
ALTER TABLE "trabajadores" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(nombre, '') || ' ' || coalesce(apellidos, '') || ' ' || coalesce(email, '') || ' ' || coalesce(nif, '')))) STORED;--> statement-breakpoint
ALTER TABLE "viviendas" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(nombre, '')))) STORED;--> statement-breakpoint
ALTER TABLE "contactos" ADD CONSTRAINT "contactos_empresa_id_empresas_id_fk" FOREIGN KEY ("empresa_id") REFERENCES "public"."empresas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planing_tareas" ADD CONSTRAINT "planing_tareas_empresa_id_empresas_id_fk" FOREIGN KEY ("empresa_id") REFERENCES "public"."empresas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presupuestos" ADD CONSTRAINT "presupuestos_vivienda_id_viviendas_id_fk" FOREIGN KEY ("vivienda_id") REFERENCES "public"."viviendas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tareas_trabajador" ADD CONSTRAINT "tareas_trabajador_vivienda_id_viviendas_id_fk" FOREIGN KEY ("vivienda_id") REFERENCES "public"."viviendas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contactos_busqueda_trgm_idx" ON "contactos" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documentos_usuario_busqueda_trgm_idx" ON "documentos_usuario" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "empresas_busqueda_trgm_idx" ON "empresas" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "presupuestos_busqueda_trgm_idx" ON "presupuestos" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "trabajadores_busqueda_trgm_idx" ON "trabajadores" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "viviendas_busqueda_trgm_idx" ON "viviendas" USING gin ("busqueda" gin_trgm_ops);