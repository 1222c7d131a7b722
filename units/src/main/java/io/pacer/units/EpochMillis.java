package io.pacer.units;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.checkerframework.checker.units.qual.UnknownUnits;
import org.checkerframework.framework.qual.SubtypeOf;

/**
 * Unit: An instant: milliseconds since 1970-01-01T00:00Z, as carried by events (never read from a clock in the model).
 *
 * <p>A Units Checker qualifier (see {@code docs/guarantees.md}): a value of this unit may only be assigned,
 * passed or added where this unit is expected; a change of unit goes through {@code Money}, and an instant meets a duration in {@code Units}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE_USE, ElementType.TYPE_PARAMETER })
@SubtypeOf(UnknownUnits.class)
public @interface EpochMillis
{
}
