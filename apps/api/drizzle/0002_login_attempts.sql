CREATE TABLE "intentos_login" (
	"id" serial PRIMARY KEY NOT NULL,
	"clave" text NOT NULL,
	"fecha" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "intentos_login_clave_fecha_idx" ON "intentos_login" USING btree ("clave","fecha");--> statement-breakpoint
CREATE INDEX "intentos_login_fecha_idx" ON "intentos_login" USING btree ("fecha");