CREATE TABLE "planing_calendario_usuarios" (
	"tarea_id" integer PRIMARY KEY NOT NULL,
	"usuarios" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "planing_calendario_usuarios" ADD CONSTRAINT "planing_calendario_usuarios_tarea_id_planing_tareas_id_fk" FOREIGN KEY ("tarea_id") REFERENCES "public"."planing_tareas"("id") ON DELETE cascade ON UPDATE no action;
