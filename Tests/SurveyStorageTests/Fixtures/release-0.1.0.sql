-- A database written by Survey Form 0.1.0 (schema migrations v1–v3): one
-- response to the built-in survey and one to a form from a file. Made with
-- the release's own ResponseStore and dumped with `sqlite3 .dump`; a later
-- release must open it and keep every response. Do not edit.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1: responses');
INSERT INTO grdb_migrations VALUES('v2: instance ids');
INSERT INTO grdb_migrations VALUES('v3: responses to any form');
CREATE TABLE IF NOT EXISTS "response" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "submittedAt" DATETIME NOT NULL, "name" TEXT NOT NULL, "companyName" TEXT NOT NULL, "yearsOfExperience" DOUBLE, "isCurrentEmployer" BOOLEAN NOT NULL, "approxSalary" DOUBLE, "comments" TEXT NOT NULL, "instanceID" TEXT);
INSERT INTO response VALUES(1,'2025-11-23 12:13:20.000','Ada Lovelace','Analytical Engines',12.5,1,85000.0,replace('First line\nsecond line','\n',char(10)),'uuid:0b7c-built-in');
CREATE TABLE IF NOT EXISTS "form_response" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "formID" TEXT NOT NULL, "formVersion" TEXT NOT NULL, "instanceID" TEXT NOT NULL UNIQUE, "startedAt" DATETIME NOT NULL, "submittedAt" DATETIME NOT NULL, "answers" TEXT NOT NULL);
INSERT INTO form_response VALUES(1,'household','3','uuid:5d1e-household','2025-11-23 12:15:00.000','2025-11-23 12:16:00.000','[{"value":"Grace Hopper","path":"name"},{"value":"36","path":"member[1]\/age"},{"value":"8","path":"member[2]\/age"},{"value":"red blue","path":"colours"}]');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('response',1);
INSERT INTO sqlite_sequence VALUES('form_response',1);
CREATE INDEX "response_on_submittedAt" ON "response"("submittedAt");
CREATE UNIQUE INDEX "response_instanceID" ON "response"("instanceID");
CREATE INDEX "form_response_form" ON "form_response"("formID", "id");
COMMIT;
