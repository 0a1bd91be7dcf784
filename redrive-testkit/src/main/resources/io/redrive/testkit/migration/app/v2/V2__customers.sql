-- The application's next release adds a table.
CREATE TABLE app_customers (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL);
