package io.redrive.bench.contender;

/** The 204-byte payload every scenario uses ({@code bench/raw-sql/payload.json}). */
public final class Payload {
  /** The payload text. */
  public static final String JSON =
      "{\"event\":\"order.created\",\"order_id\":\"ord_8f14e45fceea167a5a36dedd4bea2543\","
          + "\"customer_id\":\"cus_c9f0f895fb98ab9159f51fd0297e236d\",\"amount_cents\":129900,"
          + "\"currency\":\"EUR\",\"items\":3,\"trace\":\"4bf92f3577b34da6\"}";

  private Payload() {}

  /** The payload as an SQL string literal. */
  static String literal() {
    return "'" + JSON.replace("'", "''") + "'";
  }
}
