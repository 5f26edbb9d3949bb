DROP INDEX "caja_usuario_usuario_idx";--> statement-breakpoint
ALTER TABLE "notificaciones" ADD COLUMN "descartada_en" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "sha256" varchar(64) NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "documento_id" integer;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "movimiento_id" integer;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_documento_id_documentos_usuario_id_fk" FOREIGN KEY ("documento_id") REFERENCES "public"."documentos_usuario"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_movimiento_id_caja_usuario_id_fk" FOREIGN KEY ("movimiento_id") REFERENCES "public"."caja_usuario"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "caja_usuario_ledger_idx" ON "caja_usuario" USING btree ("usuario_id","fecha","id","cantidad");--> statement-breakpoint
CREATE INDEX "documentos_usuario_titulo_trgm_idx" ON "documentos_usuario" USING gin (f_unaccent(lower("titulo")) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_documento_unique" ON "uploads" USING btree ("documento_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_movimiento_unique" ON "uploads" USING btree ("movimiento_id");--> statement-breakpoint
CREATE INDEX "uploads_sueltos_idx" ON "uploads" USING btree ("created_at") WHERE "uploads"."documento_id" is null and "uploads"."movimiento_id" is null;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_un_adjunto_check" CHECK (num_nonnulls("uploads"."documento_id", "uploads"."movimiento_id") <= 1);