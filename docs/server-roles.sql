-- The roles and the database Survey Form's server needs, with least
-- privilege. Run once as a PostgreSQL superuser:
--
--   psql -v admin_password="'…'" -f docs/server-roles.sql
--
-- Then, as the owner, create the tables (and later migrate them):
--
--   survey-form --server-setup --server HOST --database survey_responses --user survey_form_admin
--
-- and give each collecting laptop (or person) a login of its own:
--
--   CREATE ROLE booth_laptop_1 LOGIN PASSWORD '…' IN ROLE survey_form_collectors;
--
-- and whoever gathers the results a login among the readers:
--
--   CREATE ROLE results LOGIN PASSWORD '…' IN ROLE survey_form_readers;

-- Collectors insert responses and read back only their own; readers read
-- everything and change nothing. Neither may update, delete or create.
CREATE ROLE survey_form_collectors NOLOGIN;
CREATE ROLE survey_form_readers NOLOGIN;

-- Owns the database and the schema Survey Form migrates; collects nothing.
CREATE ROLE survey_form_admin LOGIN PASSWORD :admin_password;
CREATE DATABASE survey_responses OWNER survey_form_admin;
REVOKE ALL ON DATABASE survey_responses FROM PUBLIC;
GRANT CONNECT ON DATABASE survey_responses TO survey_form_collectors, survey_form_readers;
