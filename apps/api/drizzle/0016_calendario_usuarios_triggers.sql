-- The calendar's month read each task's residents and their homes by a subquery per task shown: half of its time in
-- PostgreSQL (docs/performance.md). Each task's list, as the calendar sends it, is kept in a row of its own
-- (planing_calendario_usuarios, migration 0015) by the triggers below, on the links, the tasks, the residents and the
-- homes, whoever writes them (the app, the admin command, a restore, straight SQL). None for a task for everyone (the
-- calendar names no one for it) or without residents.
--
-- Locks, always in this order, so that two writers never wait for each other in a cycle: a home being renamed, the
-- residents (a rename or move holds its resident; a task's new or removed links take their residents shared, so
-- that a rename either finished before the list is read or waits for it and then rewrites it), then the kept rows
-- in task order. A task's own row is never locked here: its edit holds it while it takes its residents.

-- The lists as the tables give them now: one row per task with residents, not for everyone. Each link's resident
-- and home are read by their keys (OFFSET 0 keeps the planner from turning that into a join): expecting hundreds of
-- links per task (a task for everyone holds thousands), it hashed every resident for a few tasks' lists, 33 ms a
-- home's rename on bench:all's data against 8 ms this way.
CREATE VIEW planing_calendario_listas AS
SELECT ptu.tarea_id,
       json_agg(json_build_array(u.id, u.nombre, u.apellidos, u.vivienda_id, u.vivienda) ORDER BY u.id) AS usuarios
  FROM planing_tarea_usuarios ptu
  JOIN planing_tareas p ON p.id = ptu.tarea_id AND NOT p.todos
  CROSS JOIN LATERAL (
    SELECT r.id, r.nombre, r.apellidos, r.vivienda_id, (SELECT v.nombre FROM viviendas v WHERE v.id = r.vivienda_id) AS vivienda
      FROM usuarios r WHERE r.id = ptu.usuario_id OFFSET 0) u
 GROUP BY ptu.tarea_id;
--> statement-breakpoint
-- Rewrites the kept lists of these tasks: locks their rows in task order, then reads the lists in statements of
-- their own, which see whatever a writer the lock waited for committed.
CREATE OR REPLACE FUNCTION planing_calendario_rehacer(tareas integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF tareas IS NULL OR cardinality(tareas) = 0 THEN RETURN; END IF;
  PERFORM 1 FROM planing_calendario_usuarios WHERE tarea_id = ANY (tareas) ORDER BY tarea_id FOR NO KEY UPDATE;
  INSERT INTO planing_calendario_usuarios AS l (tarea_id, usuarios)
  SELECT x.tarea_id, x.usuarios FROM planing_calendario_listas x WHERE x.tarea_id = ANY (tareas) ORDER BY x.tarea_id
  ON CONFLICT (tarea_id) DO UPDATE SET usuarios = EXCLUDED.usuarios;
  DELETE FROM planing_calendario_usuarios l
   WHERE l.tarea_id = ANY (tareas)
     AND NOT EXISTS (SELECT 1 FROM planing_tareas p
                      WHERE p.id = l.tarea_id AND NOT p.todos
                        AND EXISTS (SELECT 1 FROM planing_tarea_usuarios x WHERE x.tarea_id = p.id));
END;
$$;
--> statement-breakpoint
-- Links added or removed (a task's residents set, a resident deleted): the residents first, shared, then the lists
-- of the tasks that still exist and are not for everyone.
CREATE OR REPLACE FUNCTION planing_calendario_enlaces() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  tareas integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT c.tarea_id) INTO tareas
      FROM nuevas c JOIN planing_tareas p ON p.id = c.tarea_id WHERE NOT p.todos;
    PERFORM 1 FROM usuarios WHERE id IN (SELECT c.usuario_id FROM nuevas c WHERE c.tarea_id = ANY (tareas))
     ORDER BY id FOR SHARE;
  ELSE
    SELECT array_agg(DISTINCT c.tarea_id) INTO tareas
      FROM viejas c JOIN planing_tareas p ON p.id = c.tarea_id WHERE NOT p.todos;
    PERFORM 1 FROM usuarios WHERE id IN (SELECT c.usuario_id FROM viejas c WHERE c.tarea_id = ANY (tareas))
     ORDER BY id FOR SHARE;
  END IF;
  PERFORM planing_calendario_rehacer(tareas);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER planing_calendario_enlaces_insert AFTER INSERT ON "planing_tarea_usuarios"
  REFERENCING NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION planing_calendario_enlaces();
--> statement-breakpoint
CREATE TRIGGER planing_calendario_enlaces_delete AFTER DELETE ON "planing_tarea_usuarios"
  REFERENCING OLD TABLE AS viejas FOR EACH STATEMENT EXECUTE FUNCTION planing_calendario_enlaces();
--> statement-breakpoint
-- A task made for everyone, or no longer: its list goes, or is read again.
CREATE OR REPLACE FUNCTION planing_calendario_tareas() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  tareas integer[];
BEGIN
  SELECT array_agg(n.id) INTO tareas FROM nuevas n JOIN viejas o ON o.id = n.id WHERE o.todos IS DISTINCT FROM n.todos;
  PERFORM 1 FROM usuarios WHERE id IN (SELECT x.usuario_id FROM planing_tarea_usuarios x WHERE x.tarea_id = ANY (tareas))
   ORDER BY id FOR SHARE;
  PERFORM planing_calendario_rehacer(tareas);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER planing_calendario_tareas AFTER UPDATE ON "planing_tareas"
  REFERENCING OLD TABLE AS viejas NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION planing_calendario_tareas();
--> statement-breakpoint
-- A resident renamed or moved (the update holds it): the homes it moved into, shared (a rename of such a home does
-- not know of it yet), then the lists of its tasks.
CREATE OR REPLACE FUNCTION planing_calendario_residentes() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  cambiados integer[];
BEGIN
  SELECT array_agg(n.id) INTO cambiados FROM nuevas n JOIN viejas o ON o.id = n.id
   WHERE (o.nombre, o.apellidos, o.vivienda_id) IS DISTINCT FROM (n.nombre, n.apellidos, n.vivienda_id);
  IF cambiados IS NULL THEN RETURN NULL; END IF;
  PERFORM 1 FROM viviendas WHERE id IN (SELECT n.vivienda_id FROM nuevas n JOIN viejas o ON o.id = n.id
                                         WHERE n.vivienda_id IS DISTINCT FROM o.vivienda_id)
   ORDER BY id FOR SHARE;
  PERFORM planing_calendario_rehacer(ARRAY(
    SELECT DISTINCT x.tarea_id FROM planing_tarea_usuarios x JOIN planing_tareas p ON p.id = x.tarea_id
     WHERE x.usuario_id = ANY (cambiados) AND NOT p.todos));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER planing_calendario_residentes AFTER UPDATE ON "usuarios"
  REFERENCING OLD TABLE AS viejas NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION planing_calendario_residentes();
--> statement-breakpoint
-- A home renamed: its residents are locked before the rename goes on (the sort key's trigger of migration 0011
-- updates them after it, in no set order), then the lists of their tasks are read again.
CREATE OR REPLACE FUNCTION planing_calendario_vivienda_antes() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.nombre IS DISTINCT FROM OLD.nombre THEN
    PERFORM 1 FROM usuarios WHERE vivienda_id = NEW.id ORDER BY id FOR NO KEY UPDATE;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER planing_calendario_vivienda_antes BEFORE UPDATE OF nombre ON "viviendas"
  FOR EACH ROW EXECUTE FUNCTION planing_calendario_vivienda_antes();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION planing_calendario_viviendas() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM planing_calendario_rehacer(ARRAY(
    SELECT DISTINCT x.tarea_id
      FROM nuevas n JOIN viejas o ON o.id = n.id AND o.nombre IS DISTINCT FROM n.nombre
      JOIN usuarios u ON u.vivienda_id = n.id
      JOIN planing_tarea_usuarios x ON x.usuario_id = u.id
      JOIN planing_tareas p ON p.id = x.tarea_id AND NOT p.todos));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER planing_calendario_viviendas AFTER UPDATE ON "viviendas"
  REFERENCING OLD TABLE AS viejas NEW TABLE AS nuevas FOR EACH STATEMENT EXECUTE FUNCTION planing_calendario_viviendas();
--> statement-breakpoint
-- The lists of the tasks there are (about 2 s at bench:all's 100,000 tasks).
INSERT INTO planing_calendario_usuarios (tarea_id, usuarios) SELECT tarea_id, usuarios FROM planing_calendario_listas;
