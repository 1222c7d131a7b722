package io.pacer.server.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class JsonReportsTest
{
    @Test
    void shouldWriteUtf8WhateverTheStreamsOwnEncoding() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream ascii = new PrintStream(bytes, true, StandardCharsets.US_ASCII);

        JsonReports.println(ascii, "{\"gateway\":\"zürich-1 \uD83D\uDE80\"}");
        try (JsonGenerator json = JsonReports.to(ascii))
        {
            json.writeStartObject();
            json.writeStringField("gateway", "zürich-1 \uD83D\uDE80");
            json.writeEndObject();
        }

        // the rocket (U+1F680) as its four UTF-8 bytes both ways, not as an escaped surrogate pair
        assertThat(bytes.toString(StandardCharsets.UTF_8))
            .isEqualTo("{\"gateway\":\"zürich-1 \uD83D\uDE80\"}\n{\"gateway\":\"zürich-1 \uD83D\uDE80\"}");
    }

    @Test
    void shouldLeaveAReportCutShortUnclosed() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        try (JsonGenerator json = JsonReports.to(out))
        {
            json.writeStartObject();
            json.writeArrayFieldStart("campaigns");
            json.writeStartObject();
            json.writeStringField("id", "1");
            // an error here: the report stops, and must not read as a whole one
        }

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("{\"campaigns\":[{\"id\":\"1\"");
        assertThat(out.checkError()).isFalse();
    }

    @Test
    void shouldEscapeALoneSurrogateAndKeepWhatFollowsIt() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator json = JsonReports.to(bytes))
        {
            json.writeString("\uD83D\"x");
        }

        // not merged with the quote after it into a character that is not there
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("\"\\uD83D\\\"x\"");
    }
}
