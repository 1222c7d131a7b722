package io.pacer.model;

/** Whether an operator lets a campaign bid at all. */
public enum CampaignStatus
{
    ACTIVE,
    PAUSED
}
