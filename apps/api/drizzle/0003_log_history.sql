ALTER TABLE "logs" DROP CONSTRAINT "logs_trabajador_id_trabajadores_id_fk";
--> statement-breakpoint
ALTER TABLE "logs" DROP CONSTRAINT "logs_vivienda_id_viviendas_id_fk";
--> statement-breakpoint
DROP INDEX "logs_trabajador_idx";--> statement-breakpoint
DROP INDEX "logs_vivienda_idx";--> statement-breakpoint
DROP INDEX "logs_fecha_idx";--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "trabajador_nombre" varchar(200);--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "vivienda_nombre" varchar(200);--> statement-breakpoint
CREATE INDEX "logs_trabajador_fecha_idx" ON "logs" USING btree ("trabajador_id","fecha");--> statement-breakpoint
CREATE INDEX "logs_vivienda_fecha_idx" ON "logs" USING btree ("vivienda_id","fecha");--> statement-breakpoint
CREATE INDEX "logs_fecha_idx" ON "logs" USING btree ("fecha","id");