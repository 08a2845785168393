package dev.onceonly.consumer;

import dev.onceonly.model.ProductionEnvironment;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The entry point: before Quarkus starts, the packaged service in the {@code prod} profile checks
 * that every setting production must be given is in the environment, and otherwise stops at once
 * with one message naming all of them (Quarkus itself would stop at the first, naming a property
 * rather than the variable to set). See {@link ProductionEnvironment#exitIfIncomplete}.
 */
@QuarkusMain
public class ConsumerMain {

  public static void main(String... args) {
    ProductionEnvironment.exitIfIncomplete("consumer-service", ConsumerMain.class);
    Quarkus.run(args);
  }
}
