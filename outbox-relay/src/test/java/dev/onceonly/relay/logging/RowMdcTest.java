package dev.onceonly.relay.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.Test;

class RowMdcTest {

  @Test
  void rowIdAndKeyAreInTheMdcInsideTheBlockOnly() {
    try (RowMdc mdc = RowMdc.of(42, "oo1:send_receipt:k")) {
      assertThat(MDC.get(RowMdc.ID)).isEqualTo("42");
      assertThat(MDC.get(RowMdc.KEY)).isEqualTo("oo1:send_receipt:k");
    }
    assertThat(MDC.get(RowMdc.ID)).isNull();
    assertThat(MDC.get(RowMdc.KEY)).isNull();
  }
}
