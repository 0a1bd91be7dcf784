-- An application's own first migration, run by the application's Flyway in its default schema.
CREATE TABLE app_orders (id INTEGER PRIMARY KEY, item VARCHAR(100) NOT NULL);
INSERT INTO app_orders (id, item) VALUES (1, 'teapot');
