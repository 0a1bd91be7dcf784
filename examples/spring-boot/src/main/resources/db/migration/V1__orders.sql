CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  customer TEXT NOT NULL
);

CREATE TABLE sent_emails (
  order_id TEXT PRIMARY KEY,
  sent_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
