package dev.onceonly.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * Every text field of a JSON request body is refused when it contains a NUL character ({@code
 * "\u0000"}), as query and path parameters are ({@link ParameterGuard}): PostgreSQL cannot store or
 * compare it. The refusal is a {@code MismatchedInputException}, which {@link ProblemMappers}
 * answers with a 400 naming the field. Only typed binding is affected; {@code readTree} is not.
 */
@Singleton
public class NulRefusingStrings implements ObjectMapperCustomizer {

  @Override
  public void customize(ObjectMapper mapper) {
    mapper.registerModule(
        new SimpleModule("nul-refusing-strings").addDeserializer(String.class, new Deserializer()));
  }

  static final class Deserializer extends StdScalarDeserializer<String> {

    Deserializer() {
      super(String.class);
    }

    @Override
    public String deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      String value = StringDeserializer.instance.deserialize(parser, context);
      if (value != null && value.indexOf('\0') >= 0) {
        throw context.weirdStringException(
            value,
            String.class,
            "contains a NUL character (\\u0000), which no stored text can hold: remove it");
      }
      return value;
    }
  }
}
