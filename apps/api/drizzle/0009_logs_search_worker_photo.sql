ALTER TABLE "uploads" DROP CONSTRAINT "uploads_un_adjunto_check";--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(coalesce(accion, '') || ' ' || coalesce(descripcion, '')))) STORED;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "foto_trabajador_id" integer;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_foto_trabajador_id_trabajadores_id_fk" FOREIGN KEY ("foto_trabajador_id") REFERENCES "public"."trabajadores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "logs_busqueda_trgm_idx" ON "logs" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_foto_trabajador_unique" ON "uploads" USING btree ("foto_trabajador_id");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_un_adjunto_check" CHECK (num_nonnulls("uploads"."documento_id", "uploads"."movimiento_id", "uploads"."foto_trabajador_id") <= 1);