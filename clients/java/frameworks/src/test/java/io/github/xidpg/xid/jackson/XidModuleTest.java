package io.github.xidpg.xid.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.github.xidpg.xid.Xid;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jackson: an Xid is its text as a value and as a map key, both ways; no server. */
class XidModuleTest {
    record Order(Xid id, String item, List<Xid> related) {
    }

    static final ObjectMapper JSON = new ObjectMapper().registerModule(new XidModule());
    static final Xid X = Xid.parse("5cnEkaefSdu");

    @Test
    void valueBothWays() throws Exception {
        String json = JSON.writeValueAsString(new Order(X, "pear", List.of(Xid.MIN, Xid.MAX)));
        assertEquals("{\"id\":\"5cnEkaefSdu\",\"item\":\"pear\",\"related\":[\"11111111111\",\"jpXCZedGfVQ\"]}", json);
        assertEquals(new Order(X, "pear", List.of(Xid.MIN, Xid.MAX)), JSON.readValue(json, Order.class));
        assertEquals("null", JSON.writeValueAsString((Xid) null));
        assertEquals(new Order(null, "x", null), JSON.readValue("{\"id\":null,\"item\":\"x\"}", Order.class));
    }

    @Test
    void mapKeyBothWays() throws Exception {
        Map<Xid, Integer> m = new LinkedHashMap<>();
        m.put(X, 1);
        m.put(Xid.MAX, 2);
        String json = JSON.writeValueAsString(m);
        assertEquals("{\"5cnEkaefSdu\":1,\"jpXCZedGfVQ\":2}", json);
        assertEquals(m, JSON.readValue(json, new TypeReference<Map<Xid, Integer>>() {}));
    }

    @Test
    void strictReading() {
        InvalidFormatException e = assertThrows(InvalidFormatException.class,
                () -> JSON.readValue("\"5cnEk0efSdu\"", Xid.class));
        assertTrue(e.getMessage().contains("invalid input syntax for type xid: \"5cnEk0efSdu\""), e.getMessage());
        assertThrows(InvalidFormatException.class, () -> JSON.readValue("\"jpXCZedGfVR\"", Xid.class));
        // a number is no id (not even a payload): ids are text in JSON
        assertThrows(MismatchedInputException.class, () -> JSON.readValue("42", Xid.class));
        assertThrows(MismatchedInputException.class, () -> JSON.readValue("true", Xid.class));
        assertThrows(InvalidFormatException.class,
                () -> JSON.readValue("{\"nope\":1}", new TypeReference<Map<Xid, Integer>>() {}));
    }

    @Test
    void foundThroughServiceLoader() throws Exception {
        ObjectMapper m = new ObjectMapper().findAndRegisterModules();
        assertEquals("\"5cnEkaefSdu\"", m.writeValueAsString(X));
        // without the module Jackson cannot write an Xid (no getters)
        assertThrows(Exception.class, () -> new ObjectMapper().writeValueAsString(X));
    }
}
