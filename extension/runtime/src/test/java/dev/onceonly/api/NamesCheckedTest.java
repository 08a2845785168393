package dev.onceonly.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What a handler names (an outbox destination, a rejection's reason) is checked when named. */
class NamesCheckedTest {

  @Test
  void aDestinationIsOneToSixtyFourLettersDigitsDotsUnderscoresOrDashes() {
    assertThat(
            OutboxMessage.to("send_receipt")
                .payload("{}")
                .idempotencyKey("k")
                .build()
                .destination())
        .isEqualTo("send_receipt");
    assertThat(
            OutboxMessage.to("orders.v2-eu")
                .payload("{}")
                .idempotencyKey("k")
                .build()
                .destination())
        .isEqualTo("orders.v2-eu");
    assertThat(
            OutboxMessage.to("d".repeat(64))
                .payload("{}")
                .idempotencyKey("k")
                .build()
                .destination())
        .hasSize(64);
    for (String bad : new String[] {"", "d".repeat(65), "send receipt", "send/receipt", "été"}) {
      assertThatThrownBy(() -> OutboxMessage.to(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a destination is 1 to 64 letters, digits, '.', '_' or '-', was " + bad);
    }
    assertThatThrownBy(() -> OutboxMessage.to(null)).hasMessageEndingWith("'-', was null");
  }

  @Test
  void aRejectionReasonIsOneToSixtyFourLowerCaseLettersDigitsOrUnderscores() {
    assertThat(Outcome.rejected("insufficient_balance", "balance 3, needs 5").reason())
        .isEqualTo("insufficient_balance");
    for (String bad : new String[] {"", "r".repeat(65), "Insufficient", "no-balance", "a b"}) {
      assertThatThrownBy(() -> Outcome.rejected(bad, "detail"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "a rejection reason is 1 to 64 lower-case letters, digits or '_', was " + bad);
    }
  }
}
