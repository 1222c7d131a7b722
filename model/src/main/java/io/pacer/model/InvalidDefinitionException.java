package io.pacer.model;

/** A campaign definition (or campaigns file) was rejected; {@link #field()} names the culprit. */
public final class InvalidDefinitionException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String field;

    public InvalidDefinitionException(final String field, final String problem)
    {
        super(field + ": " + problem);
        this.field = field;
    }

    /** The offending field, e.g. {@code budgetMicros} or {@code campaigns[2].end}. */
    public String field()
    {
        return field;
    }
}
