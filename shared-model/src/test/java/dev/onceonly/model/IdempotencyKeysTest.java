package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeysTest {

  private static final String KEY = "order-completed:9912";

  @Test
  void shortKeyIsReadableAndNamesKindConsumerAndMessage() {
    assertThat(IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", KEY))
        .isEqualTo("oo1:send_receipt:receipts:order-completed:9912");
  }

  @Test
  void sameInputsGiveTheSameKey() {
    String longKey = "reward-redeemed:" + "r".repeat(1000);

    assertThat(IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", KEY))
        .isEqualTo(IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", KEY));
    assertThat(IdempotencyKeys.derive(OutboxKind.ISSUE_PAYOUT, "loyalty", longKey))
        .isEqualTo(IdempotencyKeys.derive(OutboxKind.ISSUE_PAYOUT, "loyalty", longKey));
  }

  @Test
  void keyDiffersByKindConsumerAndMessageKey() {
    String base = IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", KEY);

    assertThat(IdempotencyKeys.derive(OutboxKind.ISSUE_PAYOUT, "receipts", KEY)).isNotEqualTo(base);
    assertThat(IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "loyalty", KEY)).isNotEqualTo(base);
    assertThat(IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", "order-completed:9913"))
        .isNotEqualTo(base);
  }

  @Test
  void veryLongMessageKeyIsShortenedToAtMostMaxLength() {
    String key = IdempotencyKeys.derive(OutboxKind.ISSUE_PAYOUT, "loyalty", "x".repeat(10_000));

    assertThat(IdempotencyKeys.MAX_LENGTH).isEqualTo(255);
    assertThat(key).hasSize(IdempotencyKeys.MAX_LENGTH);
    assertThat(key).startsWith("oo1:issue_payout:loyalty:xxx").matches(".*~[0-9a-f]{64}");
  }

  @Test
  void keyOfExactlyMaxLengthIsKeptAndOneMoreIsShortened() {
    String prefix = "oo1:send_receipt:receipts:";
    String fits = "k".repeat(IdempotencyKeys.MAX_LENGTH - prefix.length());

    assertThat(IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", fits))
        .isEqualTo(prefix + fits);
    assertThat(IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", fits + "k"))
        .hasSize(IdempotencyKeys.MAX_LENGTH)
        .contains("~")
        .isNotEqualTo(prefix + fits);
  }

  @Test
  void longKeysThatDifferOnlyAtTheEndGiveDifferentKeys() {
    String common = "customer-profile-changed:" + "c".repeat(600) + ":";

    String a = IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "profiles", common + "1");
    String b = IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "profiles", common + "2");

    assertThat(a).isNotEqualTo(b);
    assertThat(a).hasSizeLessThanOrEqualTo(255);
    assertThat(b).hasSizeLessThanOrEqualTo(255);
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "   ", "\t"})
  void blankConsumerOrMessageKeyIsRefused(String blank) {
    assertThatThrownBy(() -> IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, blank, KEY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("consumer must not be blank");
    assertThatThrownBy(() -> IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", blank))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("messageKey must not be blank");
  }

  @Test
  void maxLengthMatchesTheOutboxColumn() throws IOException {
    try (InputStream ddl =
        getClass().getClassLoader().getResourceAsStream("db/outbox/V1__outbox.sql")) {
      assertThat(new String(ddl.readAllBytes(), StandardCharsets.UTF_8))
          .containsPattern(
              "idempotency_key\\s+varchar\\("
                  + IdempotencyKeys.MAX_LENGTH
                  + "\\)\\s+NOT NULL UNIQUE");
    }
  }
}
