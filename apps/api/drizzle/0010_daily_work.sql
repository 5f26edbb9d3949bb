ALTER TABLE "uploads" DROP CONSTRAINT "uploads_un_adjunto_check";--> statement-breakpoint
DROP INDEX "planing_tareas_empresa_idx";--> statement-breakpoint
DROP INDEX "presupuestos_vivienda_idx";--> statement-breakpoint
DROP INDEX "uploads_sueltos_idx";--> statement-breakpoint
ALTER TABLE "planing_tareas" ADD COLUMN "todos" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "presupuestos" ADD COLUMN "estado_cambiado_por_id" integer;--> statement-breakpoint
ALTER TABLE "presupuestos" ADD COLUMN "estado_cambiado_por" varchar(200);--> statement-breakpoint
ALTER TABLE "presupuestos" ADD COLUMN "estado_cambiado_en" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "presupuestos" ADD COLUMN "orden_descripcion" text GENERATED ALWAYS AS (f_unaccent(lower(descripcion))) STORED;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "presupuesto_id" integer;--> statement-breakpoint
ALTER TABLE "presupuestos" ADD CONSTRAINT "presupuestos_estado_cambiado_por_id_trabajadores_id_fk" FOREIGN KEY ("estado_cambiado_por_id") REFERENCES "public"."trabajadores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_presupuesto_id_presupuestos_id_fk" FOREIGN KEY ("presupuesto_id") REFERENCES "public"."presupuestos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "planing_tareas_empresa_fecha_idx" ON "planing_tareas" USING btree ("empresa_id","fecha","id");--> statement-breakpoint
CREATE INDEX "presupuestos_vivienda_estado_idx" ON "presupuestos" USING btree ("vivienda_id","estado");--> statement-breakpoint
CREATE INDEX "presupuestos_orden_descripcion_idx" ON "presupuestos" USING btree ("orden_descripcion","id");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_presupuesto_unique" ON "uploads" USING btree ("presupuesto_id");--> statement-breakpoint
CREATE INDEX "uploads_sueltos_idx" ON "uploads" USING btree ("created_at") WHERE "uploads"."documento_id" is null and "uploads"."movimiento_id" is null and "uploads"."presupuesto_id" is null and "uploads"."foto_trabajador_id" is null;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_un_adjunto_check" CHECK (num_nonnulls("uploads"."documento_id", "uploads"."movimiento_id", "uploads"."presupuesto_id", "uploads"."foto_trabajador_id") <= 1);