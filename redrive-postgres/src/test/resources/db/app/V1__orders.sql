-- The application's own table, made by the application's own Flyway (history in flyway_schema_history).
CREATE TABLE orders (id SERIAL PRIMARY KEY, item TEXT NOT NULL);
