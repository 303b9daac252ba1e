package io.github.xidpg.xid;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * README.md's second Java block, class FrameworksExample: clients/java/test.sh
 * copies it into this module's tests (XID_README_EXAMPLE=1), and this runs its
 * main against the live server, with assertions on (Surefire's default).
 */
class ReadmeExampleTest {
    @Test
    void frameworksExampleRuns() throws Exception {
        Pg.url(); // skips without a server
        Class<?> c;
        try {
            c = Class.forName("FrameworksExample");
        } catch (ClassNotFoundException e) {
            assumeTrue(System.getenv("XID_README_EXAMPLE") == null, "README.md's FrameworksExample was not copied in");
            throw e;
        }
        Method main = c.getMethod("main", String[].class);
        assertNotNull(main);
        main.invoke(null, (Object) new String[0]);
    }
}
