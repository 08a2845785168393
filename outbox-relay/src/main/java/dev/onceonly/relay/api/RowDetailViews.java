package dev.onceonly.relay.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.operations.RowDetail;
import dev.onceonly.web.Redactor;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * One row as operators see it, in the API and in the console alike: the payload with the fields of
 * {@code relay.operations.redact-fields} masked, and every attempt.
 */
@ApplicationScoped
public class RowDetailViews {

  private final Redactor redactor;
  private final ObjectMapper json;

  public RowDetailViews(RelayConfig config, ObjectMapper json) {
    this.redactor = new Redactor(config.operations().redactFields());
    this.json = json;
  }

  public RowDetailView view(RowDetail detail) {
    JsonNode payload;
    try {
      payload = redactor.redact(json.readTree(detail.payload()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "stored payload of row " + detail.row().id() + " is not JSON", e);
    }
    return new RowDetailView(
        RowView.from(detail.row()),
        payload,
        detail.attempts().stream().map(AttemptView::from).toList());
  }
}
