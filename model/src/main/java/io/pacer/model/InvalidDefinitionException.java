package io.pacer.model;

/** A campaign definition (or campaigns file) was rejected; {@link #field()} names the culprit. */
public final class InvalidDefinitionException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String problem;

    public InvalidDefinitionException(final String field, final String problem)
    {
        super(field + ": " + problem);
        this.field = field;
        this.problem = problem;
    }

    /** What is wrong with {@link #field()}, without its name. */
    public String problem()
    {
        return problem;
    }

    /** The offending field, e.g. {@code budgetMicros} or {@code campaigns[2].end}. */
    public String field()
    {
        return field;
    }
}
