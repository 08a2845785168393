package dev.onceonly.consumer.processing;

import static dev.onceonly.consumer.TestEvents.decoded;
import static dev.onceonly.consumer.TestEvents.json;
import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Db;
import dev.onceonly.consumer.Processing;
import dev.onceonly.internal.processing.Verdict;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * A deadlock (40P01) costs the claim transaction a retry, not its message: PostgreSQL aborts one of
 * the two transactions, and the retry, a new transaction, applies the effect once the other is
 * gone.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class DeadlockRetryTest {

  @Inject Processing processor;
  @Inject Db db;

  @Test
  void aDeadlockedClaimTransactionIsRetriedAndAppliesOnce() throws Exception {
    String customer = unique("c");
    OrderCompleted order = order(unique("o"), customer, 4_200);
    DecodedEvent event = decoded(order);
    long deadlocksBefore = deadlocks();

    try (Connection other = connect()) {
      other.setAutoCommit(false);
      try (Statement s = other.createStatement()) {
        // This session waits long before it looks for deadlocks: the claim transaction's session
        // (the default 1 s) finds the cycle first and is the one PostgreSQL aborts.
        s.execute("SET deadlock_timeout = '30s'");
      }
      // 1. Another transaction holds the order's ledger key, uncommitted.
      try (PreparedStatement ledger =
          other.prepareStatement(
              "INSERT INTO loyalty.point_ledger (customer_id, order_id, points, event_id,"
                  + " message_key) VALUES (?, ?, 1, gen_random_uuid(), 'other')")) {
        ledger.setString(1, customer);
        ledger.setString(2, order.orderId());
        ledger.executeUpdate();
      }
      int otherPid = pid(other);

      // 2. The claim transaction claims the message, then waits for the ledger key.
      CompletableFuture<Verdict> outcome =
          CompletableFuture.supplyAsync(
              () -> processor.process(ConsumerName.LOYALTY, event, json(order)));
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(20))
          .until(() -> waitingOn(otherPid) == 1);

      // 3. The other transaction now wants the claim: a cycle, and the claim transaction dies.
      try (PreparedStatement claim =
          other.prepareStatement(
              "INSERT INTO onceonly.processed_messages (consumer, message_key, payload_sha256,"
                  + " event_date) VALUES ('loyalty', ?, ?, ?)")) {
        claim.setString(1, order.messageKey());
        claim.setString(2, "0".repeat(64));
        claim.setObject(3, order.occurredAt().atOffset(ZoneOffset.UTC).toLocalDate());
        claim.executeUpdate();
      }
      assertThat(outcome).isNotDone();
      // Statistics reach pg_stat_database within a second or so.
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(20))
          .until(() -> deadlocks() > deadlocksBefore);

      // 4. The other transaction gives up; the retry claims and applies.
      other.rollback();
      assertThat(outcome.get(30, TimeUnit.SECONDS)).isEqualTo(Verdict.APPLIED);
    }

    assertThat(db.balance(customer)).isEqualTo(42);
    assertThat(
            db.count(
                "SELECT count(*) FROM loyalty.point_ledger WHERE order_id = ?", order.orderId()))
        .isEqualTo(1);
  }

  private long deadlocks() {
    return db.count("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()");
  }

  private long waitingOn(int pid) {
    return db.count(
        "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))", pid);
  }

  private static int pid(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static Connection connect() throws SQLException {
    var config = ConfigProvider.getConfig();
    return DriverManager.getConnection(
        config.getValue("quarkus.datasource.jdbc.url", String.class),
        config.getOptionalValue("quarkus.datasource.username", String.class).orElse(""),
        config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
  }
}
