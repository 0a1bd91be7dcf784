package io.redrive.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.error.StoreException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/** Connection-level store failures are 503 STORE_UNAVAILABLE; others stay 500 STORE_ERROR. */
class ConnectionFailuresTest {
  private final ErrorMapper errors = new ErrorMapper(new JsonCodec());

  private ErrorMapper.ApiError map(StoreException e) {
    return errors.toError(e, "POST /v1/queues/q/messages");
  }

  @Test
  void sqlStateClass08_isUnavailable() {
    assertThat(map(new StoreException("enqueue failed", "08006", false, null)))
        .extracting(ErrorMapper.ApiError::status, ErrorMapper.ApiError::code)
        .containsExactly(503, "STORE_UNAVAILABLE");
  }

  @Test
  void poolAcquisitionTimeout_withoutSqlState_isUnavailable() {
    SQLTransientConnectionException hikari =
        new SQLTransientConnectionException(
            "redrive-postgres - Connection is not available, request timed out after 2001ms.");
    assertThat(map(new StoreException("lease failed", null, false, hikari)).status())
        .isEqualTo(503);
  }

  @Test
  void connectionClosedBehindACleanUpFailure_isUnavailable() {
    SQLException closed = new SQLException("Connection is closed");
    assertThat(map(new StoreException("complete failed", null, false, closed)).code())
        .isEqualTo("STORE_UNAVAILABLE");
  }

  @Test
  void connectionRefusedDeepInTheChain_isUnavailable() {
    SQLException driver =
        new SQLException(
            "could not connect", null, new ConnectException("Connection refused (Connection"));
    assertThat(map(new StoreException("read failed", null, false, driver)).status()).isEqualTo(503);
  }

  @Test
  void aFailureTheDatabaseReported_staysAStoreError() {
    SQLException unique = new SQLException("duplicate key", "23505");
    assertThat(map(new StoreException("enqueue failed", "23505", false, unique)))
        .extracting(ErrorMapper.ApiError::status, ErrorMapper.ApiError::code)
        .containsExactly(500, "STORE_ERROR");
  }
}
