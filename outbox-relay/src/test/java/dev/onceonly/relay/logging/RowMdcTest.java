package dev.onceonly.relay.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.Test;

class RowMdcTest {

  private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
  private static final String SPAN = "b7ad6b7169203331";

  @Test
  void rowIdAndKeyAreInTheMdcInsideTheBlockOnly() {
    try (RowMdc mdc = RowMdc.of(42, "oo1:send_receipt:k")) {
      assertThat(MDC.get(RowMdc.ID)).isEqualTo("42");
      assertThat(MDC.get(RowMdc.KEY)).isEqualTo("oo1:send_receipt:k");
    }
    assertThat(MDC.get(RowMdc.ID)).isNull();
    assertThat(MDC.get(RowMdc.KEY)).isNull();
  }

  @Test
  void theAttemptsTraceAndSpanAreInTheMdcInsideTheBlockOnly() {
    try (RowMdc mdc = RowMdc.of(7, "oo1:issue_payout:k", "00-" + TRACE + "-" + SPAN + "-01")) {
      assertThat(MDC.get(RowMdc.ID)).isEqualTo("7");
      assertThat(MDC.get(RowMdc.KEY)).isEqualTo("oo1:issue_payout:k");
      assertThat(MDC.get(RowMdc.TRACE_ID)).isEqualTo(TRACE);
      assertThat(MDC.get(RowMdc.SPAN_ID)).isEqualTo(SPAN);
    }
    assertThat(MDC.get(RowMdc.ID)).isNull();
    assertThat(MDC.get(RowMdc.TRACE_ID)).isNull();
    assertThat(MDC.get(RowMdc.SPAN_ID)).isNull();
  }

  @Test
  void anUntracedOrMalformedTraceParentPutsNoTraceFields() {
    for (String traceParent : new String[] {null, "", "00-" + TRACE, "not-a-trace-parent-at-all"}) {
      try (RowMdc mdc = RowMdc.of(8, "oo1:send_receipt:k", traceParent)) {
        assertThat(MDC.get(RowMdc.ID)).as(traceParent).isEqualTo("8");
        assertThat(MDC.get(RowMdc.TRACE_ID)).as(traceParent).isNull();
        assertThat(MDC.get(RowMdc.SPAN_ID)).as(traceParent).isNull();
      }
    }
  }
}
