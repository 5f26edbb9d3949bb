DROP INDEX "presupuestos_orden_descripcion_idx";--> statement-breakpoint
DROP INDEX "presupuestos_fecha_idx";--> statement-breakpoint
CREATE INDEX "presupuestos_precio_idx" ON "presupuestos" USING btree ("precio","fecha_prevista","id");--> statement-breakpoint
CREATE INDEX "presupuestos_estado_orden_idx" ON "presupuestos" USING btree ((case "estado" when 'PENDIENTE_APROBACION' then 0 when 'APROBADO' then 1 else 2 end),"fecha_prevista","id");--> statement-breakpoint
CREATE INDEX "presupuestos_orden_descripcion_idx" ON "presupuestos" USING btree ("orden_descripcion","fecha_prevista","id");--> statement-breakpoint
CREATE INDEX "presupuestos_fecha_idx" ON "presupuestos" USING btree ("fecha_prevista","id");