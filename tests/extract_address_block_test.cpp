// The printed address block above a postcode line (extract/address_block.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/address_block.h"

namespace ex = receipt::extract;

TEST(AddressBlock, LinesAboveThePostcodeLineBelowTheCompany) {
    EXPECT_EQ(ex::address_block("VIVOPAC MARKETING SDN BHD (1070687-M)\n14 JALAN MANIS 4 TAMAN SEGAR 56100 KL\nTEL: 03-91334364",
                                "VIVOPAC MARKETING SDN BHD"),
              "14 JALAN MANIS 4 TAMAN SEGAR 56100 KL");
    EXPECT_EQ(ex::address_block("YAM FRESH\nNO. 145G, JALAN RIMBUNAN RAYA 1,\nLAMAN RIMBUNAN KEPONG,\n52100 KUALA LUMPUR\n"
                                "GST REG NO: 000123\n",
                                "YAM FRESH"),
              "NO. 145G, JALAN RIMBUNAN RAYA 1, LAMAN RIMBUNAN KEPONG, 52100 KUALA LUMPUR");
    // State lines below the postcode line end the block; a registration line above it starts it.
    EXPECT_EQ(ex::address_block("SKCA HARDWARE & TIMBER SDN. BHD.\nCO. REG. NO.: 946207-D\nLOT 204 & 205, JALAN BATU 12 1/4,\n"
                                "43100 HULU LANGAT,\nSELANGOR DARUL EHSAN.\nTEL 03-1234",
                                "SKCA HARDWARE & TIMBER SDN. BHD."),
              "LOT 204 & 205, JALAN BATU 12 1/4, 43100 HULU LANGAT, SELANGOR DARUL EHSAN.");
}

TEST(AddressBlock, NoBlock) {
    // No 5-digit postcode above the first date, a postcode only in a phone, tax or operator line after the date.
    EXPECT_EQ(ex::address_block("TESCO\n216 Station Road\nManchester M1 1AE\nVAT No. GB 962 3324 78\n26/06/17\nOPERATOR 83901",
                                "TESCO"),
              std::nullopt);
    EXPECT_EQ(ex::address_block("SHOP\nTEL: 03-60932 123\nGST ID: 000849813504\n", "SHOP"), std::nullopt);
    EXPECT_EQ(ex::address_block("81100 JOHOR BAHRU\n", ""), std::nullopt);  // the first line is the name's
    EXPECT_EQ(ex::address_block("", ""), std::nullopt);
}
