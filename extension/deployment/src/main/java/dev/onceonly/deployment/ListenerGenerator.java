package dev.onceonly.deployment;

import dev.onceonly.internal.intake.Intake;
import io.quarkus.gizmo.ClassCreator;
import io.quarkus.gizmo.ClassOutput;
import io.quarkus.gizmo.FieldCreator;
import io.quarkus.gizmo.FieldDescriptor;
import io.quarkus.gizmo.MethodCreator;
import io.quarkus.gizmo.MethodDescriptor;
import io.quarkus.gizmo.ResultHandle;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.lang.reflect.Modifier;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Generates, for each consumer, the bean SmallRye Reactive Messaging sees: one {@code @Incoming}
 * method on the consumer's channel that takes the message as bytes and hands it to the platform's
 * {@link Intake}, which settles it later (manual acknowledgement).
 *
 * <pre>{@code
 * @Singleton
 * public class ShipOrder_OnceOnlyListener {
 *   @Inject Intake intake;
 *
 *   @Incoming("orders")
 *   public CompletionStage<Void> onMessage(Message<byte[]> message) {
 *     return intake.takeIn("shipping", message);
 *   }
 * }
 * }</pre>
 */
final class ListenerGenerator {

  static final String SUFFIX = "_OnceOnlyListener";

  private static final String SIGNATURE =
      "(Lorg/eclipse/microprofile/reactive/messaging/Message<[B>;)"
          + "Ljava/util/concurrent/CompletionStage<Ljava/lang/Void;>;";

  private ListenerGenerator() {}

  /** The name of the listener generated for a consumer's handler. */
  static String listenerName(FoundConsumer consumer) {
    return consumer.handler().toString() + SUFFIX;
  }

  static void generate(FoundConsumer consumer, ClassOutput output) {
    String name = listenerName(consumer);
    try (ClassCreator listener =
        ClassCreator.builder().classOutput(output).className(name).build()) {
      listener.addAnnotation(Singleton.class);
      FieldCreator intake = listener.getFieldCreator("intake", Intake.class);
      intake.setModifiers(0);
      intake.addAnnotation(Inject.class);
      FieldDescriptor intakeField = intake.getFieldDescriptor();

      MethodCreator onMessage =
          listener.getMethodCreator("onMessage", CompletionStage.class, Message.class);
      onMessage.setModifiers(Modifier.PUBLIC);
      onMessage.setSignature(SIGNATURE);
      onMessage.addAnnotation(Incoming.class).addValue("value", consumer.channel());
      ResultHandle platform = onMessage.readInstanceField(intakeField, onMessage.getThis());
      ResultHandle settled =
          onMessage.invokeVirtualMethod(
              MethodDescriptor.ofMethod(
                  Intake.class, "takeIn", CompletionStage.class, String.class, Message.class),
              platform,
              onMessage.load(consumer.name()),
              onMessage.getMethodParam(0));
      onMessage.returnValue(settled);
    }
  }
}
