package dev.onceonly.internal.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.api.IncomingMessage;
import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.internal.catalog.ConsumerSpec;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * One message as it arrived, on whichever broker: what a decoder reads ({@link IncomingMessage})
 * and how the message is settled on that broker (requeue, dead letter, reject). The JSON tree is
 * read once and kept, for the decoder and the fingerprint.
 */
public abstract class Arrival implements IncomingMessage {

  private final Message<byte[]> message;
  private JsonNode json;
  private InvalidMessageException notJson;

  protected Arrival(Message<byte[]> message) {
    this.message = message;
  }

  public Message<byte[]> message() {
    return message;
  }

  @Override
  public byte[] body() {
    byte[] body = message.getPayload();
    return body == null ? new byte[0] : body;
  }

  @Override
  public JsonNode json() throws InvalidMessageException {
    if (json == null && notJson == null) {
      try {
        json = JsonBodies.parse(body());
      } catch (InvalidMessageException e) {
        notJson = e;
      }
    }
    if (notJson != null) {
      throw notJson;
    }
    return json;
  }

  /** The fingerprint of the body: over its JSON when it was read as JSON, else over its bytes. */
  public String fingerprint() {
    return JsonBodies.fingerprint(json, body());
  }

  /** Whether the broker delivered this message before (a redelivery after a requeue or a crash). */
  public abstract boolean redelivered();

  /** The broker's name for tracing ({@code rabbitmq}, {@code kafka}). */
  public abstract String system();

  /** Acks the message: its outcome committed. */
  public CompletionStage<Void> ack() {
    return message.ack();
  }

  /** Gives the message back to the broker, to be delivered again. */
  public abstract CompletionStage<Void> requeue(Throwable cause);

  /**
   * Moves the message to {@code consumer}'s dead letters with the reason in headers, then settles
   * it: never in neither place.
   */
  public abstract CompletionStage<Void> deadLetter(
      ConsumerSpec consumer, String failure, String reason, Throwable cause);

  /** Settles a message nothing else settled (a bug): rejected to the broker's own dead letters. */
  public abstract void reject(Throwable cause);
}
