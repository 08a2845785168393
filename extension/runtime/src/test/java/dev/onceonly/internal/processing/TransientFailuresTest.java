package dev.onceonly.internal.processing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class TransientFailuresTest {

  @Test
  void aTransientStateAnywhereInTheCauseChainCounts() {
    Exception failure =
        new IllegalStateException("commit", new SQLException("terminating connection", "57P01"));

    assertThat(TransientFailures.isTransient(failure)).isTrue();
  }

  @Test
  void aTransientStateSuppressedInTheTransactionManagersRollbackCounts() {
    Exception rollback = new IllegalStateException("ARJUNA016053: Could not commit transaction.");
    rollback.addSuppressed(new SQLException("terminating connection", "57P01"));

    assertThat(TransientFailures.isTransient(new RuntimeException(rollback))).isTrue();
  }

  @Test
  void otherStatesAndNoStateDoNot() {
    Exception constraint = new RuntimeException(new SQLException("duplicate key", "23505"));
    constraint.addSuppressed(new IllegalArgumentException("no SQL"));

    assertThat(TransientFailures.isTransient(constraint)).isFalse();
    assertThat(TransientFailures.isTransient(new IllegalStateException("plain"))).isFalse();
  }
}
